//===--- SummaryData.cpp - What functions of other units do --------------===//

#include "checks/analysis/SummaryData.h"
#include "checks/analysis/TorchTypes.h"
#include "clang/AST/ASTLambda.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <mutex>
#include <set>

using namespace clang;

namespace torch_tidy::analysis {

static constexpr llvm::StringLiteral Format = "torch-tidy-function-summaries";
static constexpr int Version = 1;

// The queries of the running analysis (RecordSummaryQueries), by thread.
static thread_local std::set<std::string> *Recording = nullptr;

static void record(const char *Kind, llvm::StringRef Key) {
  if (Recording)
    Recording->insert((Kind + Key).str());
}

RecordSummaryQueries::RecordSummaryQueries(std::set<std::string> &Into)
    : Previous(Recording) {
  Recording = &Into;
}

RecordSummaryQueries::~RecordSummaryQueries() { Recording = Previous; }

// Queries are "f:<function>" (what it returns), "p:<index>:<function>"
// (what its parameter is passed), "u:<function>" (what its result is used
// for), "c:<function>" (the grad mode it is called in; "C:" when calls
// with grad mode on answer as no call does), "m:<member>", "r:<member>"
// (what its reads do with it), "d:<function>" (the parameters it may
// differentiate), "b:<function>" (whether it runs a backward pass of its
// own), "o:<function>" (whether a call in its own unit differentiates
// its result) and "t:" (whether the project trains nowhere).
static constexpr const char *ReturnsQuery = "f:", *UsedQuery = "u:",
                            *CalledQuery = "c:", *CalledOffQuery = "C:",
                            *MemberQuery = "m:", *MemberReadQuery = "r:",
                            *ParametersQuery = "d:", *BackwardQuery = "b:",
                            *OwnDifferentiatedQuery = "o:",
                            *TrainingQuery = "t:";
static std::string passedQuery(llvm::StringRef Key, unsigned Index) {
  return "p:" + std::to_string(Index) + ":" + Key.str();
}

std::string FunctionSummaries::keyOf(const FunctionDecl *FD) {
  std::string Key;
  llvm::raw_string_ostream OS(Key);
  PrintingPolicy Policy(FD->getASTContext().getLangOpts());
  Policy.SuppressScope = false;
  Policy.FullyQualifiedName = true;
  FD->printQualifiedName(OS, Policy);
  OS << '(';
  // A parameter's top-level const is no part of the function's type: the
  // definition `f(const int n)` and the declaration `f(int n)` are one
  // function.
  for (const ParmVarDecl *P : FD->parameters()) {
    if (P->getFunctionScopeIndex())
      OS << ", ";
    OS << P->getType().getCanonicalType().getUnqualifiedType().getAsString(
        Policy);
  }
  OS << ')';
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD); MD && MD->isConst())
    OS << " const";
  return Key;
}

const FunctionSummary *FunctionSummaries::find(const FunctionDecl *FD) const {
  if (Recording) {
    std::string Key = keyOf(FD);
    record(ReturnsQuery, Key);
    return find(Key);
  }
  return Functions.empty() ? nullptr : find(keyOf(FD));
}

const FunctionSummary *FunctionSummaries::find(llvm::StringRef Key) const {
  auto It = Functions.find(Key.str());
  return It == Functions.end() ? nullptr : &It->second;
}

void FunctionSummaries::add(std::string Key, FunctionSummary S) {
  FunctionSummary &Into = Functions[std::move(Key)];
  for (const auto &[Element, R] : S) {
    auto [It, New] = Into.try_emplace(Element, R);
    if (!New) {
      It->second.Handed |= R.Handed;
      It->second.NotHanded |= R.NotHanded;
    }
  }
}

/// Adds one more pass to what \p Into says: what it carries, walked only if
/// every pass is, and the same witness whatever order the units are merged
/// in.
static void joinPass(PassedSummary &Into, Carries C, llvm::StringRef At,
                     bool Walked) {
  Into.Passed |= C;
  Into.Walked = Into.Walked && Walked;
  if (!At.empty() && (Into.At.empty() || At < Into.At))
    Into.At = At.str();
}

std::optional<PassedSummary>
FunctionSummaries::passed(const FunctionDecl *FD, unsigned Index) const {
  if (!Recording && Passed.empty())
    return std::nullopt;
  std::string Key = keyOf(FD);
  if (Recording)
    Recording->insert(passedQuery(Key, Index));
  return livePassed(Key, Index);
}

std::optional<PassedSummary>
FunctionSummaries::livePassed(const std::string &Key, unsigned Index) const {
  auto It = Passed.find(Key);
  if (It == Passed.end())
    return std::nullopt;
  auto P = It->second.find(Index);
  if (P == It->second.end())
    return std::nullopt;
  std::optional<PassedSummary> Out;
  for (const auto &[From, Record] : P->second) {
    if (!runs(From, Record.Name))
      continue;
    const PassedSummary &S = Record.Summary;
    if (!Out)
      Out = S;
    else
      joinPass(*Out, S.Passed, S.At, S.Walked);
  }
  return Out;
}

bool FunctionSummaries::runs(const std::string &Key,
                             const std::string &Name) const {
  return Key.empty() || !Program || References.count(Key) ||
         DependentNames.count(Name);
}

std::pair<std::string, std::string>
FunctionSummaries::caller(const FunctionDecl *FD) {
  // A lambda runs where the function it is written in calls it, or hands
  // it on: that function must run for it to.
  while (FD && isLambdaCallOperator(FD))
    FD = dyn_cast<FunctionDecl>(cast<CXXMethodDecl>(FD)->getParent()->getParent());
  if (!FD || FD->isMain() || FD->isExternC() ||
      FD->getOverloadedOperator() != OO_None || isa<CXXConstructorDecl>(FD) ||
      isa<CXXDestructorDecl>(FD) || isa<CXXConversionDecl>(FD) ||
      FD->hasAttr<UsedAttr>() || !FD->getIdentifier())
    return {};
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD); MD && MD->isVirtual())
    return {};
  return {keyOf(FD), FD->getName().str()};
}

void FunctionSummaries::addReference(const std::string &Key, bool Dependent) {
  (Dependent ? DependentNames : References).insert(Key);
}

void FunctionSummaries::addPassed(const std::string &Key, unsigned Index,
                                  Carries C, llvm::StringRef At, bool Walked,
                                  const std::string &From,
                                  const std::string &FromName) {
  auto [It, New] = Passed[Key][Index].try_emplace(
      From, PassesFrom{PassedSummary{C, At.str(), Walked}, FromName});
  if (!New)
    joinPass(It->second.Summary, C, At, Walked);
}

/// What \p Summaries, by member, says of \p Field: the lookup recorded as
/// a query of kind \p Kind.
template <typename Summary>
static const Summary *
memberEntry(const std::map<std::string, Summary> &Summaries,
            const FieldDecl *Field, const char *Kind) {
  if (Recording)
    record(Kind, Field->getQualifiedNameAsString());
  if (Summaries.empty())
    return nullptr;
  auto It = Summaries.find(Field->getQualifiedNameAsString());
  return It == Summaries.end() ? nullptr : &It->second;
}

const PassedSummary *FunctionSummaries::member(const FieldDecl *Field) const {
  return memberEntry(Members, Field, MemberQuery);
}

void FunctionSummaries::addMember(const std::string &Key, Carries C,
                                  llvm::StringRef At) {
  auto [It, New] = Members.try_emplace(Key, PassedSummary{C, At.str(), false});
  if (New)
    return;
  It->second.Passed |= C;
  if (!At.empty() && (It->second.At.empty() || At < It->second.At))
    It->second.At = At.str();
}

const UsedSummary *
FunctionSummaries::memberRead(const FieldDecl *Field) const {
  return memberEntry(MemberReads, Field, MemberReadQuery);
}

/// Adds one more use to what \p Into says: differentiated when one may be,
/// and as witness the first use that may, or else the first use, whatever
/// order the units are merged in.
static void joinUse(UsedSummary &Into, bool Differentiated,
                    llvm::StringRef At) {
  if (Differentiated && !Into.Differentiated)
    Into = UsedSummary{true, At.str(), Into.Dropped};
  else if (Differentiated == Into.Differentiated && !At.empty() &&
           (Into.At.empty() || At < Into.At))
    Into.At = At.str();
}

void FunctionSummaries::addMemberRead(const std::string &Key,
                                      bool Differentiated,
                                      llvm::StringRef At) {
  auto [It, New] =
      MemberReads.try_emplace(Key, UsedSummary{Differentiated, At.str()});
  if (!New)
    joinUse(It->second, Differentiated, At);
}

const UsedSummary *FunctionSummaries::used(const FunctionDecl *FD) const {
  if (Recording)
    record(UsedQuery, keyOf(FD));
  if (Used.empty())
    return nullptr;
  auto It = Used.find(keyOf(FD));
  return It == Used.end() ? nullptr : &It->second;
}

void FunctionSummaries::addUsed(const std::string &Key, bool Differentiated,
                                llvm::StringRef At, bool Dropped) {
  auto [It, New] =
      Used.try_emplace(Key, UsedSummary{Differentiated, At.str(), Dropped});
  if (New)
    return;
  UsedSummary &U = It->second;
  U.Dropped = U.Dropped && Dropped;
  // The witness: the first call that may differentiate it, or else the
  // first call.
  joinUse(U, Differentiated, At);
}

const CalledSummary *FunctionSummaries::called(const FunctionDecl *FD,
                                               bool OnlyOff) const {
  if (!Recording && Called.empty())
    return nullptr;
  std::string Key = keyOf(FD);
  if (Recording)
    record(OnlyOff ? CalledOffQuery : CalledQuery, Key);
  auto It = Called.find(Key);
  return It == Called.end() ? nullptr : &It->second;
}

/// Whether \p Lists holds \p Index for \p FD; none when it has no list
/// for \p FD.
static std::optional<bool>
listsParameter(const std::map<std::string, std::set<unsigned>> &Lists,
               const FunctionDecl *FD, unsigned Index, const char *Query) {
  if (!FD)
    return std::nullopt;
  std::string Key = FunctionSummaries::keyOf(FD);
  record(Query, Key);
  auto It = Lists.find(Key);
  if (It == Lists.end())
    return std::nullopt;
  return It->second.count(Index) != 0;
}

std::optional<bool>
FunctionSummaries::differentiatesParameter(const FunctionDecl *FD,
                                           unsigned Index) const {
  return listsParameter(Parameters, FD, Index, ParametersQuery);
}

std::optional<bool>
FunctionSummaries::differentiatesParameterInView(const FunctionDecl *FD,
                                                 unsigned Index) const {
  return listsParameter(ParametersInView, FD, Index, ParametersQuery);
}

void FunctionSummaries::addParameters(const std::string &Key,
                                      const std::set<unsigned> &May,
                                      const std::set<unsigned> *InView) {
  Parameters[Key].insert(May.begin(), May.end());
  if (InView)
    ParametersInView[Key].insert(InView->begin(), InView->end());
}

/// The place \p Witnesses records for \p FD, asked as \p Query.
static const std::string *
witnessOf(const std::map<std::string, std::string> &Witnesses,
          const char *Query, const FunctionDecl *FD) {
  if (!FD || (!Recording && Witnesses.empty()))
    return nullptr;
  std::string Key = FunctionSummaries::keyOf(FD);
  record(Query, Key);
  auto It = Witnesses.find(Key);
  return It == Witnesses.end() ? nullptr : &It->second;
}

/// Keeps \p At as \p Key's witness in \p Witnesses when it is the first
/// place, whatever order the units are merged in.
static void addWitness(std::map<std::string, std::string> &Witnesses,
                       const std::string &Key, llvm::StringRef At) {
  auto [It, New] = Witnesses.try_emplace(Key, At.str());
  if (!New && !At.empty() && (It->second.empty() || At < It->second))
    It->second = At.str();
}

const std::string *FunctionSummaries::runsBackward(const FunctionDecl *FD) const {
  return witnessOf(Backward, BackwardQuery, FD);
}

void FunctionSummaries::addBackward(const std::string &Key, llvm::StringRef At) {
  addWitness(Backward, Key, At);
}

const std::string *
FunctionSummaries::differentiatedWhereDefined(const FunctionDecl *FD) const {
  return witnessOf(OwnDifferentiated, OwnDifferentiatedQuery, FD);
}

void FunctionSummaries::addDifferentiatedWhereDefined(const std::string &Key,
                                                      llvm::StringRef At) {
  addWitness(OwnDifferentiated, Key, At);
}

void FunctionSummaries::addCalled(const std::string &Key,
                                  CalledSummary::Mode Mode,
                                  llvm::StringRef At) {
  auto [It, New] = Called.try_emplace(Key, CalledSummary{Mode, At.str()});
  if (New)
    return;
  CalledSummary &C = It->second;
  // The witness: the first call in the merged mode, whatever order the
  // units are merged in.
  if (Mode > C.GradMode)
    C = CalledSummary{Mode, At.str()};
  else if (Mode == C.GradMode && !At.empty() && (C.At.empty() || At < C.At))
    C.At = At.str();
}

static const char *modeText(CalledSummary::Mode Mode) {
  return Mode == CalledSummary::Off     ? "off"
         : Mode == CalledSummary::On    ? "on"
                                        : "unknown";
}

void FunctionSummaries::merge(const FunctionSummaries &Other) {
  for (const auto &[Key, M] : Other.Members)
    addMember(Key, M.Passed, M.At);
  for (const auto &[Key, R] : Other.MemberReads)
    addMemberRead(Key, R.Differentiated, R.At);
  for (const auto &[Key, S] : Other.Functions)
    add(Key, S);
  for (const auto &[Key, Params] : Other.Passed)
    for (const auto &[Index, ByCaller] : Params)
      for (const auto &[From, P] : ByCaller)
        addPassed(Key, Index, P.Summary.Passed, P.Summary.At, P.Summary.Walked,
                  From, P.Name);
  mergeReferences(Other, /*Changed=*/false);
  for (const auto &[Key, U] : Other.Used)
    addUsed(Key, U.Differentiated, U.At, U.Dropped);
  for (const auto &[Key, C] : Other.Called)
    addCalled(Key, C.GradMode, C.At);
  for (const auto &[Key, May] : Other.Parameters) {
    auto InView = Other.ParametersInView.find(Key);
    addParameters(Key, May,
                  InView == Other.ParametersInView.end() ? nullptr
                                                         : &InView->second);
  }
  for (const auto &[Key, At] : Other.Backward)
    addBackward(Key, At);
  for (const auto &[Key, At] : Other.OwnDifferentiated)
    addDifferentiatedWhereDefined(Key, At);
}

void FunctionSummaries::mergeReferences(const FunctionSummaries &Other,
                                        bool Changed) {
  References.insert(Other.References.begin(), Other.References.end());
  DependentNames.insert(Other.DependentNames.begin(),
                        Other.DependentNames.end());
  Program |= Other.Program;
  // A unit changed since most likely still trains where it did; one that
  // trained nowhere may train now.
  if (Other.Trains == Training::Somewhere)
    addTraining(llvm::StringRef(Other.TrainingAt));
  else if (Other.Trains == Training::Nowhere && !Changed)
    addTraining(llvm::StringRef());
  else if (Other.Trains != Training::Unsaid)
    addTraining(std::nullopt);
}

void FunctionSummaries::addTraining(std::optional<llvm::StringRef> At) {
  Training T = !At          ? Training::Unknown
               : At->empty() ? Training::Nowhere
                             : Training::Somewhere;
  if (T == Training::Somewhere &&
      (Trains != Training::Somewhere || *At < TrainingAt))
    TrainingAt = At->str();
  if (T > Trains)
    Trains = T;
}

bool FunctionSummaries::trainsNowhere() const {
  record(TrainingQuery, "");
  return Trains == Training::Nowhere;
}

static std::string wordsText(Carries C) {
  return std::string(C.mayBeLeaf() ? "L" : "") +
         (C.mayHoldGraph() ? "G" : "") + (C.mayBeUnknown() ? "U" : "");
}

std::string FunctionSummaries::answerTo(llvm::StringRef Query) const {
  auto Passing = [](const PassedSummary &P) {
    return wordsText(P.Passed) + " " + P.At + (P.Walked ? " walked" : "");
  };
  if (Query.consume_front(ReturnsQuery)) {
    auto It = Functions.find(Query.str());
    if (It == Functions.end())
      return "-";
    std::string Text;
    for (const auto &[Element, R] : It->second)
      Text += std::to_string(Element) + "=" + wordsText(R.Handed) + "/" +
              wordsText(R.NotHanded) + ";";
    return Text;
  }
  if (Query.consume_front(UsedQuery)) {
    auto It = Used.find(Query.str());
    return It == Used.end() ? "-"
                            : (It->second.Differentiated ? "D " : "N ") +
                                  std::string(It->second.Dropped ? "dropped "
                                                                 : "") +
                                  It->second.At;
  }
  // The mode only: where the witness is does not change an analysis.
  if (bool OnlyOff = Query.consume_front(CalledOffQuery);
      OnlyOff || Query.consume_front(CalledQuery)) {
    auto It = Called.find(Query.str());
    return It == Called.end() ||
                   (OnlyOff && It->second.GradMode == CalledSummary::On)
               ? "-"
               : modeText(It->second.GradMode);
  }
  if (Query.consume_front(ParametersQuery)) {
    auto It = Parameters.find(Query.str());
    if (It == Parameters.end())
      return "-";
    std::string Text = "may:";
    for (unsigned Index : It->second)
      Text += std::to_string(Index) + ",";
    if (auto InView = ParametersInView.find(Query.str());
        InView != ParametersInView.end()) {
      Text += ";in view:";
      for (unsigned Index : InView->second)
        Text += std::to_string(Index) + ",";
    }
    return Text;
  }
  if (Query.consume_front(BackwardQuery)) {
    auto It = Backward.find(Query.str());
    return It == Backward.end() ? "-" : "backward " + It->second;
  }
  if (Query.consume_front(TrainingQuery))
    return Trains == Training::Nowhere ? "trains nowhere" : "-";
  if (Query.consume_front(OwnDifferentiatedQuery)) {
    auto It = OwnDifferentiated.find(Query.str());
    return It == OwnDifferentiated.end() ? "-" : "differentiated " + It->second;
  }
  if (Query.consume_front(MemberQuery)) {
    auto It = Members.find(Query.str());
    return It == Members.end() ? "-" : Passing(It->second);
  }
  if (Query.consume_front(MemberReadQuery)) {
    auto It = MemberReads.find(Query.str());
    return It == MemberReads.end()
               ? "-"
               : (It->second.Differentiated ? "D " : "N ") + It->second.At;
  }
  if (Query.consume_front("p:")) {
    auto [Index, Key] = Query.split(':');
    unsigned I = 0;
    if (Index.getAsInteger(10, I))
      return "-";
    std::optional<PassedSummary> P = livePassed(Key.str(), I);
    return P ? Passing(*P) : "-";
  }
  return "-";
}

std::string
FunctionSummaries::answersTo(const std::set<std::string> &Queries) const {
  std::string Text;
  for (const std::string &Q : Queries)
    Text += Q + " -> " +
            answerTo(Q) +
            "\n";
  return Text;
}

bool FunctionSummaries::answersAny(const std::set<std::string> &Queries) const {
  return llvm::any_of(Queries, [&](const std::string &Q) {
    return answerTo(Q) != "-";
  });
}

static llvm::json::Array wordsOf(Carries C) {
  llvm::json::Array Words;
  if (C.mayBeLeaf())
    Words.push_back("leaf");
  if (C.mayHoldGraph())
    Words.push_back("graph");
  if (C.mayBeUnknown())
    Words.push_back("unknown");
  return Words;
}

/// \p Indices as a JSON list; indicesOf reads it back.
static llvm::json::Array indexArray(const std::set<unsigned> &Indices) {
  llvm::json::Array List;
  for (unsigned Index : Indices)
    List.push_back(Index);
  return List;
}

/// The parameter indices \p V lists, into \p Out; \p Present says whether
/// there was a list. False when it is malformed.
static bool indicesOf(const llvm::json::Value *V, std::set<unsigned> &Out,
                      bool &Present) {
  Present = V != nullptr;
  if (!V)
    return true;
  const llvm::json::Array *List = V->getAsArray();
  if (!List)
    return false;
  for (const llvm::json::Value &IV : *List) {
    std::optional<int64_t> Index = IV.getAsInteger();
    if (!Index || *Index < 0 || *Index > 1024)
      return false;
    Out.insert(static_cast<unsigned>(*Index));
  }
  return true;
}

static bool carriesOf(const llvm::json::Value *V, Carries &Out) {
  const llvm::json::Array *Words = V ? V->getAsArray() : nullptr;
  if (!Words)
    return false;
  Out = Carries::none();
  for (const llvm::json::Value &W : *Words) {
    std::optional<llvm::StringRef> S = W.getAsString();
    if (S == "leaf")
      Out |= Carries::leaf();
    else if (S == "graph")
      Out |= Carries::graph();
    else if (S == "unknown")
      Out |= Carries::unknown();
    else
      return false;
  }
  return true;
}

llvm::json::Value FunctionSummaries::toJSON() const {
  std::set<std::string> Keys;
  for (const auto &Entry : Functions)
    Keys.insert(Entry.first);
  for (const auto &Entry : Passed)
    Keys.insert(Entry.first);
  for (const auto &Entry : Used)
    Keys.insert(Entry.first);
  for (const auto &Entry : Called)
    Keys.insert(Entry.first);
  for (const auto &Entry : Parameters)
    Keys.insert(Entry.first);
  for (const auto &Entry : Backward)
    Keys.insert(Entry.first);
  for (const auto &Entry : OwnDifferentiated)
    Keys.insert(Entry.first);
  llvm::json::Array List;
  for (const std::string &Key : Keys) {
    llvm::json::Array Returns, PassedList;
    if (auto It = Functions.find(Key); It != Functions.end())
      for (const auto &[Element, R] : It->second)
        Returns.push_back(llvm::json::Object{{"element", Element},
                                             {"handed", wordsOf(R.Handed)},
                                             {"not_handed", wordsOf(R.NotHanded)}});
    if (auto It = Passed.find(Key); It != Passed.end())
      for (const auto &[Index, ByCaller] : It->second)
        for (const auto &[From, P] : ByCaller) {
          llvm::json::Object Entry{{"parameter", Index},
                                   {"carries", wordsOf(P.Summary.Passed)},
                                   {"at", P.Summary.At},
                                   {"walked", P.Summary.Walked}};
          if (!From.empty())
            Entry["from"] =
                llvm::json::Object{{"function", From}, {"name", P.Name}};
          PassedList.push_back(std::move(Entry));
        }
    llvm::json::Object Entry{{"function", Key},
                             {"returns", std::move(Returns)},
                             {"passed", std::move(PassedList)}};
    if (auto It = Used.find(Key); It != Used.end())
      Entry["used"] = llvm::json::Object{
          {"differentiated", It->second.Differentiated},
          {"at", It->second.At},
          {"dropped", It->second.Dropped}};
    if (auto It = Called.find(Key); It != Called.end())
      Entry["called"] = llvm::json::Object{
          {"grad_mode", modeText(It->second.GradMode)}, {"at", It->second.At}};
    if (auto It = Parameters.find(Key); It != Parameters.end())
      Entry["differentiates"] = indexArray(It->second);
    if (auto It = ParametersInView.find(Key); It != ParametersInView.end())
      Entry["differentiates_in_view"] = indexArray(It->second);
    if (auto It = Backward.find(Key); It != Backward.end())
      Entry["runs_backward"] = llvm::json::Object{{"at", It->second}};
    if (auto It = OwnDifferentiated.find(Key); It != OwnDifferentiated.end())
      Entry["differentiated_where_defined"] =
          llvm::json::Object{{"at", It->second}};
    List.push_back(std::move(Entry));
  }
  llvm::json::Array MemberList;
  for (const auto &[Key, M] : Members)
    MemberList.push_back(llvm::json::Object{
        {"member", Key}, {"carries", wordsOf(M.Passed)}, {"at", M.At}});
  llvm::json::Array ReadList;
  for (const auto &[Key, R] : MemberReads)
    ReadList.push_back(llvm::json::Object{
        {"member", Key}, {"differentiated", R.Differentiated}, {"at", R.At}});
  llvm::json::Array ReferenceList, DependentList;
  for (const std::string &Key : References)
    ReferenceList.push_back(Key);
  for (const std::string &Name : DependentNames)
    DependentList.push_back(Name);
  llvm::json::Object Result{{"format", Format},
                            {"version", Version},
                            {"functions", std::move(List)},
                            {"members", std::move(MemberList)},
                            {"member_reads", std::move(ReadList)},
                            {"program", Program},
                            {"references", std::move(ReferenceList)},
                            {"dependent_names", std::move(DependentList)}};
  // Where a unit trains; "" for nowhere, null for not known. Files
  // written before it was recorded have none, read as not known.
  if (Trains == Training::Somewhere || Trains == Training::Nowhere)
    Result["training"] = TrainingAt;
  else if (Trains == Training::Unknown)
    Result["training"] = nullptr;
  return Result;
}

bool FunctionSummaries::fromJSON(const llvm::json::Value &V,
                                 FunctionSummaries &Out, std::string &Error) {
  const llvm::json::Object *O = V.getAsObject();
  if (!O || O->getString("format") != Format) {
    Error = "not a torch-tidy function summaries file";
    return false;
  }
  if (O->getInteger("version") != Version) {
    Error = "function summaries of an unknown version (expected " +
            std::to_string(Version) + ")";
    return false;
  }
  const llvm::json::Array *List = O->getArray("functions");
  if (!List) {
    Error = "function summaries without a 'functions' list";
    return false;
  }
  for (const llvm::json::Value &Entry : *List) {
    const llvm::json::Object *F = Entry.getAsObject();
    std::optional<llvm::StringRef> Key = F ? F->getString("function") : std::nullopt;
    if (!Key) {
      Error = "a function summary without 'function'";
      return false;
    }
    const llvm::json::Array NoReturns;
    const llvm::json::Array *Returns = F->getArray("returns");
    FunctionSummary S;
    for (const llvm::json::Value &RV : Returns ? *Returns : NoReturns) {
      const llvm::json::Object *R = RV.getAsObject();
      std::optional<int64_t> Element = R ? R->getInteger("element") : std::nullopt;
      ReturnSummary Summary;
      if (!Element || *Element < -1 || *Element > 64 ||
          !carriesOf(R->get("handed"), Summary.Handed) ||
          !carriesOf(R->get("not_handed"), Summary.NotHanded)) {
        Error = "a malformed return summary of '" + Key->str() + "'";
        return false;
      }
      S[static_cast<int>(*Element)] = Summary;
    }
    if (!S.empty())
      Out.add(Key->str(), std::move(S));
    if (const llvm::json::Array *PassedList = F->getArray("passed"))
      for (const llvm::json::Value &PV : *PassedList) {
        const llvm::json::Object *P = PV.getAsObject();
        std::optional<int64_t> Index = P ? P->getInteger("parameter") : std::nullopt;
        std::optional<llvm::StringRef> At = P ? P->getString("at") : std::nullopt;
        Carries C;
        // Optional: files written before callers were recorded have none,
        // and count as passes of a function that runs.
        const llvm::json::Value *FV = P ? P->get("from") : nullptr;
        const llvm::json::Object *From = FV ? FV->getAsObject() : nullptr;
        std::optional<llvm::StringRef> FromKey =
            From ? From->getString("function") : std::nullopt;
        std::optional<llvm::StringRef> FromName =
            From ? From->getString("name") : std::nullopt;
        if (!Index || *Index < 0 || *Index > 1024 || !At ||
            !carriesOf(P->get("carries"), C) ||
            (FV && (!FromKey || FromKey->empty() || !FromName))) {
          Error = "a malformed parameter summary of '" + Key->str() + "'";
          return false;
        }
        Out.addPassed(Key->str(), static_cast<unsigned>(*Index), C, *At,
                      P->getBoolean("walked").value_or(false),
                      FromKey ? FromKey->str() : "",
                      FromName ? FromName->str() : "");
      }
    // Optional: files written before result uses were summarised have none.
    if (const llvm::json::Value *UV = F->get("used")) {
      const llvm::json::Object *U = UV->getAsObject();
      std::optional<bool> Differentiated =
          U ? U->getBoolean("differentiated") : std::nullopt;
      std::optional<llvm::StringRef> At = U ? U->getString("at") : std::nullopt;
      if (!Differentiated || !At) {
        Error = "a malformed result use summary of '" + Key->str() + "'";
        return false;
      }
      // Optional: files written before drops were summarised have none,
      // and say no call drops it.
      Out.addUsed(Key->str(), *Differentiated, *At,
                  U->getBoolean("dropped").value_or(false));
    }
    // Optional: files written before calls' grad mode was summarised have
    // none.
    if (const llvm::json::Value *CV = F->get("called")) {
      const llvm::json::Object *C = CV->getAsObject();
      std::optional<llvm::StringRef> Mode =
          C ? C->getString("grad_mode") : std::nullopt;
      std::optional<llvm::StringRef> At = C ? C->getString("at") : std::nullopt;
      std::optional<CalledSummary::Mode> Parsed;
      for (CalledSummary::Mode M :
           {CalledSummary::Off, CalledSummary::Unknown, CalledSummary::On})
        if (Mode == modeText(M))
          Parsed = M;
      if (!Parsed || !At) {
        Error = "a malformed call summary of '" + Key->str() + "'";
        return false;
      }
      Out.addCalled(Key->str(), *Parsed, *At);
    }
    // Optional: files written before parameters were summarised have none,
    // and those written before what the code in view does was recorded
    // have no "differentiates_in_view".
    std::set<unsigned> May, InView;
    bool HasMay = false, HasInView = false;
    if (!indicesOf(F->get("differentiates"), May, HasMay) ||
        !indicesOf(F->get("differentiates_in_view"), InView, HasInView)) {
      Error = "a malformed parameter use summary of '" + Key->str() + "'";
      return false;
    }
    if (HasMay)
      Out.addParameters(Key->str(), May, HasInView ? &InView : nullptr);
    // Optional: files written before backward passes were summarised have
    // none.
    if (const llvm::json::Value *BV = F->get("runs_backward")) {
      const llvm::json::Object *B = BV->getAsObject();
      std::optional<llvm::StringRef> At = B ? B->getString("at") : std::nullopt;
      if (!At) {
        Error = "a malformed backward pass summary of '" + Key->str() + "'";
        return false;
      }
      Out.addBackward(Key->str(), *At);
    }
    // Optional likewise.
    if (const llvm::json::Value *OV = F->get("differentiated_where_defined")) {
      const llvm::json::Object *D = OV->getAsObject();
      std::optional<llvm::StringRef> At = D ? D->getString("at") : std::nullopt;
      if (!At) {
        Error = "a malformed summary of the calls of '" + Key->str() +
                "' in its own unit";
        return false;
      }
      Out.addDifferentiatedWhereDefined(Key->str(), *At);
    }
  }
  // Optional: files written before members were summarised have none.
  if (const llvm::json::Array *MemberList = O->getArray("members"))
    for (const llvm::json::Value &MV : *MemberList) {
      const llvm::json::Object *M = MV.getAsObject();
      std::optional<llvm::StringRef> Key = M ? M->getString("member") : std::nullopt;
      std::optional<llvm::StringRef> At = M ? M->getString("at") : std::nullopt;
      Carries C;
      if (!Key || !At || !carriesOf(M->get("carries"), C)) {
        Error = "a malformed member summary";
        return false;
      }
      Out.addMember(Key->str(), C, *At);
    }
  // Optional: files written before member reads were summarised have none.
  if (const llvm::json::Array *ReadList = O->getArray("member_reads"))
    for (const llvm::json::Value &RV : *ReadList) {
      const llvm::json::Object *R = RV.getAsObject();
      std::optional<llvm::StringRef> Key = R ? R->getString("member") : std::nullopt;
      std::optional<llvm::StringRef> At = R ? R->getString("at") : std::nullopt;
      std::optional<bool> Differentiated =
          R ? R->getBoolean("differentiated") : std::nullopt;
      if (!Key || !At || !Differentiated) {
        Error = "a malformed member read summary";
        return false;
      }
      Out.addMemberRead(Key->str(), *Differentiated, *At);
    }
  // Optional: files written before references were recorded have none, and
  // say no program (so that every call counts).
  if (const llvm::json::Value *PV = O->get("program")) {
    std::optional<bool> Program = PV->getAsBoolean();
    if (!Program) {
      Error = "a malformed 'program' entry";
      return false;
    }
    if (*Program)
      Out.addProgram();
  }
  if (const llvm::json::Value *TV = O->get("training")) {
    if (TV->kind() == llvm::json::Value::Null) {
      Out.addTraining(std::nullopt);
    } else if (std::optional<llvm::StringRef> At = TV->getAsString()) {
      Out.addTraining(*At);
    } else {
      Error = "a malformed 'training' entry";
      return false;
    }
  } else {
    Out.addTraining(std::nullopt);
  }
  for (auto [Field, Dependent] :
       {std::pair{"references", false}, std::pair{"dependent_names", true}})
    if (const llvm::json::Value *RV = O->get(Field)) {
      const llvm::json::Array *Refs = RV->getAsArray();
      if (!Refs) {
        Error = std::string("a malformed '") + Field + "' list";
        return false;
      }
      for (const llvm::json::Value &R : *Refs) {
        std::optional<llvm::StringRef> Key = R.getAsString();
        if (!Key) {
          Error = std::string("a malformed '") + Field + "' list";
          return false;
        }
        Out.addReference(Key->str(), Dependent);
      }
    }
  return true;
}

bool userBodyNotInUnit(const FunctionDecl *FD, const SourceManager &SM) {
  if (!FD || isLibraryFunction(FD) || SM.isInSystemHeader(FD->getLocation()))
    return false;
  const FunctionDecl *Def = FD->getDefinition();
  return !(Def && Def->hasBody());
}

bool bodyInHeader(const FunctionDecl *FD, const SourceManager &SM) {
  if (!FD || isLibraryFunction(FD) || !FD->isExternallyVisible())
    return false;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD);
      MD && MD->getParent()->isLambda())
    return false;
  const FunctionDecl *Def = FD->getDefinition();
  if (!Def || !Def->hasBody())
    return false;
  SourceLocation At = SM.getExpansionLoc(Def->getLocation());
  return At.isValid() && !SM.isInSystemHeader(At) && !SM.isInMainFile(At);
}

bool callsSummarised(const FunctionDecl *FD, const SourceManager &SM) {
  return userBodyNotInUnit(FD, SM) || bodyInHeader(FD, SM);
}

bool bodyIsElsewhere(const FunctionDecl *FD, const SourceManager &SM) {
  return userBodyNotInUnit(FD, SM) &&
         !mayBeOverridden(dyn_cast<CXXMethodDecl>(FD));
}

static std::mutex SourceLock;
static SummariesSource DefaultSource;

void setDefaultSummaries(SummariesSource Source) {
  std::lock_guard<std::mutex> Guard(SourceLock);
  DefaultSource = std::move(Source);
}

std::shared_ptr<const FunctionSummaries>
defaultSummaries(llvm::StringRef MainFile) {
  SummariesSource Source;
  {
    std::lock_guard<std::mutex> Guard(SourceLock);
    Source = DefaultSource;
  }
  return Source ? Source(MainFile) : nullptr;
}

// The directory the tool was started in, read before any analysis changes
// into a compile command's directory.
static const std::string &startDirectory() {
  static const std::string Dir = [] {
    llvm::SmallString<256> D;
    llvm::sys::fs::current_path(D);
    return std::string(D);
  }();
  return Dir;
}
static const bool StartDirectoryRead = !startDirectory().empty();

std::string summariesPath(llvm::StringRef Path) {
  (void)StartDirectoryRead;
  if (Path.empty() || llvm::sys::path::is_absolute(Path) ||
      startDirectory().empty())
    return Path.str();
  llvm::SmallString<256> Abs(startDirectory());
  llvm::sys::path::append(Abs, Path);
  return std::string(Abs);
}

std::shared_ptr<const FunctionSummaries> loadSummaries(llvm::StringRef Named,
                                                       std::string &Error) {
  std::string Resolved = summariesPath(Named);
  llvm::StringRef Path = Resolved;
  struct Loaded {
    llvm::sys::TimePoint<> Modified;
    uint64_t Size = 0;
    std::shared_ptr<const FunctionSummaries> Summaries;
  };
  static std::mutex Lock;
  static llvm::StringMap<Loaded> Cache;

  llvm::sys::fs::file_status Status;
  if (std::error_code EC = llvm::sys::fs::status(Path, Status)) {
    Error = "cannot read function summaries '" + Named.str() + "': " + EC.message();
    return nullptr;
  }
  std::lock_guard<std::mutex> Guard(Lock);
  auto It = Cache.find(Path);
  if (It != Cache.end() && It->second.Modified == Status.getLastModificationTime() &&
      It->second.Size == Status.getSize())
    return It->second.Summaries;
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buffer) {
    Error = "cannot read function summaries '" + Named.str() +
            "': " + Buffer.getError().message();
    return nullptr;
  }
  llvm::Expected<llvm::json::Value> V = llvm::json::parse((*Buffer)->getBuffer());
  if (!V) {
    Error = "function summaries '" + Named.str() +
            "' are not JSON: " + llvm::toString(V.takeError());
    return nullptr;
  }
  auto Summaries = std::make_shared<FunctionSummaries>();
  std::string Why;
  if (!FunctionSummaries::fromJSON(*V, *Summaries, Why)) {
    Error = "function summaries '" + Named.str() + "': " + Why;
    return nullptr;
  }
  Cache[Path] = {Status.getLastModificationTime(), Status.getSize(), Summaries};
  return Summaries;
}

} // namespace torch_tidy::analysis
