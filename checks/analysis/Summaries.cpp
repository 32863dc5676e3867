//===--- Summaries.cpp - H of what functions of other units return --------===//

#include "checks/analysis/Summaries.h"
#include "checks/analysis/BackwardPasses.h"
#include "checks/analysis/Differentiated.h"
#include "checks/analysis/ExprUtils.h"
#include "checks/analysis/GradGuard.h"
#include "checks/analysis/LoopScope.h"
#include "checks/analysis/TorchTypes.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <mutex>
#include <set>

using namespace clang;

namespace torch_tidy::analysis {

static constexpr llvm::StringLiteral Format = "torch-tidy-function-summaries";
static constexpr int Version = 1;

std::string FunctionSummaries::keyOf(const FunctionDecl *FD) {
  std::string Key;
  llvm::raw_string_ostream OS(Key);
  PrintingPolicy Policy(FD->getASTContext().getLangOpts());
  Policy.SuppressScope = false;
  Policy.FullyQualifiedName = true;
  FD->printQualifiedName(OS, Policy);
  OS << '(';
  for (const ParmVarDecl *P : FD->parameters()) {
    if (P->getFunctionScopeIndex())
      OS << ", ";
    OS << P->getType().getCanonicalType().getAsString(Policy);
  }
  OS << ')';
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD); MD && MD->isConst())
    OS << " const";
  return Key;
}

const FunctionSummary *FunctionSummaries::find(const FunctionDecl *FD) const {
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

const PassedSummary *FunctionSummaries::passed(const FunctionDecl *FD,
                                               unsigned Index) const {
  if (Passed.empty())
    return nullptr;
  auto It = Passed.find(keyOf(FD));
  if (It == Passed.end())
    return nullptr;
  auto P = It->second.find(Index);
  return P == It->second.end() ? nullptr : &P->second;
}

void FunctionSummaries::addPassed(const std::string &Key, unsigned Index,
                                  Carries C, llvm::StringRef At, bool Walked) {
  auto [It, New] =
      Passed[Key].try_emplace(Index, PassedSummary{C, At.str(), Walked});
  if (New)
    return;
  It->second.Passed |= C;
  It->second.Walked = It->second.Walked && Walked;
  // The same witness whatever order the units are merged in.
  if (!At.empty() && (It->second.At.empty() || At < It->second.At))
    It->second.At = At.str();
}

const PassedSummary *FunctionSummaries::member(const FieldDecl *Field) const {
  if (Members.empty())
    return nullptr;
  auto It = Members.find(Field->getQualifiedNameAsString());
  return It == Members.end() ? nullptr : &It->second;
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

const UsedSummary *FunctionSummaries::used(const FunctionDecl *FD) const {
  if (Used.empty())
    return nullptr;
  auto It = Used.find(keyOf(FD));
  return It == Used.end() ? nullptr : &It->second;
}

void FunctionSummaries::addUsed(const std::string &Key, bool Differentiated,
                                llvm::StringRef At) {
  auto [It, New] = Used.try_emplace(Key, UsedSummary{Differentiated, At.str()});
  if (New)
    return;
  UsedSummary &U = It->second;
  // The witness: the first call that may differentiate it, or else the
  // first call, whatever order the units are merged in.
  if (Differentiated && !U.Differentiated)
    U = UsedSummary{true, At.str()};
  else if (Differentiated == U.Differentiated && !At.empty() &&
           (U.At.empty() || At < U.At))
    U.At = At.str();
}

void FunctionSummaries::merge(const FunctionSummaries &Other) {
  for (const auto &[Key, M] : Other.Members)
    addMember(Key, M.Passed, M.At);
  for (const auto &[Key, S] : Other.Functions)
    add(Key, S);
  for (const auto &[Key, Params] : Other.Passed)
    for (const auto &[Index, P] : Params)
      addPassed(Key, Index, P.Passed, P.At, P.Walked);
  for (const auto &[Key, U] : Other.Used)
    addUsed(Key, U.Differentiated, U.At);
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
  llvm::json::Array List;
  for (const std::string &Key : Keys) {
    llvm::json::Array Returns, PassedList;
    if (auto It = Functions.find(Key); It != Functions.end())
      for (const auto &[Element, R] : It->second)
        Returns.push_back(llvm::json::Object{{"element", Element},
                                             {"handed", wordsOf(R.Handed)},
                                             {"not_handed", wordsOf(R.NotHanded)}});
    if (auto It = Passed.find(Key); It != Passed.end())
      for (const auto &[Index, P] : It->second)
        PassedList.push_back(llvm::json::Object{{"parameter", Index},
                                                {"carries", wordsOf(P.Passed)},
                                                {"at", P.At},
                                                {"walked", P.Walked}});
    llvm::json::Object Entry{{"function", Key},
                             {"returns", std::move(Returns)},
                             {"passed", std::move(PassedList)}};
    if (auto It = Used.find(Key); It != Used.end())
      Entry["used"] = llvm::json::Object{
          {"differentiated", It->second.Differentiated}, {"at", It->second.At}};
    List.push_back(std::move(Entry));
  }
  llvm::json::Array MemberList;
  for (const auto &[Key, M] : Members)
    MemberList.push_back(llvm::json::Object{
        {"member", Key}, {"carries", wordsOf(M.Passed)}, {"at", M.At}});
  return llvm::json::Object{{"format", Format},
                            {"version", Version},
                            {"functions", std::move(List)},
                            {"members", std::move(MemberList)}};
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
        if (!Index || *Index < 0 || *Index > 1024 || !At ||
            !carriesOf(P->get("carries"), C)) {
          Error = "a malformed parameter summary of '" + Key->str() + "'";
          return false;
        }
        Out.addPassed(Key->str(), static_cast<unsigned>(*Index), C, *At,
                      P->getBoolean("walked").value_or(false));
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
      Out.addUsed(Key->str(), *Differentiated, *At);
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
  return true;
}

/// The number of elements of a std::tuple or std::pair \p T, or of fields
/// of a struct of tensors, or 0.
static unsigned elementsOf(QualType T) {
  if (isTensorAggregate(T.getNonReferenceType())) {
    const CXXRecordDecl *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
    auto Fields = std::distance(RD->field_begin(), RD->field_end());
    return static_cast<unsigned>(std::min<long>(Fields, 64));
  }
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T.getNonReferenceType()->getAsCXXRecordDecl());
  if (!Spec || !Spec->isInStdNamespace() || !Spec->getIdentifier())
    return 0;
  if (Spec->getName() == "pair")
    return 2;
  if (Spec->getName() != "tuple" || Spec->getTemplateArgs().size() != 1)
    return 0;
  const TemplateArgument &Pack = Spec->getTemplateArgs()[0];
  return Pack.getKind() == TemplateArgument::Pack ? Pack.pack_size() : 0;
}

/// Whether \p FD is the user's (not LibTorch's or the standard library's)
/// and its body is not in the unit.
static bool userBodyNotInUnit(const FunctionDecl *FD, const SourceManager &SM) {
  if (!FD || isLibraryFunction(FD) || SM.isInSystemHeader(FD->getLocation()))
    return false;
  const FunctionDecl *Def = FD->getDefinition();
  return !(Def && Def->hasBody());
}

bool bodyIsElsewhere(const FunctionDecl *FD, const SourceManager &SM) {
  return userBodyNotInUnit(FD, SM) &&
         !mayBeOverridden(dyn_cast<CXXMethodDecl>(FD));
}

namespace {

/// The functions of the main file that another unit may call.
class Summarisable : public RecursiveASTVisitor<Summarisable> {
public:
  explicit Summarisable(ASTContext &Ctx) : SM(Ctx.getSourceManager()) {}
  bool shouldVisitTemplateInstantiations() const { return false; }
  bool shouldVisitLambdaBody() const { return false; }

  bool VisitFunctionDecl(FunctionDecl *FD) {
    // A class whose methods the main file defines: its members' state.
    if (const auto *MD = dyn_cast<CXXMethodDecl>(FD);
        MD && FD->doesThisDeclarationHaveABody() && FD->isOutOfLine() &&
        !FD->isDependentContext() &&
        SM.isInMainFile(SM.getExpansionLoc(FD->getLocation())))
      Classes.insert(MD->getParent()->getCanonicalDecl());
    if (!FD->doesThisDeclarationHaveABody() || FD->isDependentContext() ||
        FD->getTemplatedKind() != FunctionDecl::TK_NonTemplate ||
        !FD->isExternallyVisible() || isa<CXXConstructorDecl>(FD) ||
        isa<CXXDestructorDecl>(FD) ||
        !SM.isInMainFile(SM.getExpansionLoc(FD->getLocation())) ||
        !holdsTensorsOrFields(FD->getReturnType()))
      return true;
    // A method defined in its class is in every unit that sees the class.
    if (const auto *MD = dyn_cast<CXXMethodDecl>(FD);
        MD && !FD->isOutOfLine())
      return true;
    Found.push_back(FD);
    return true;
  }

  /// A call of a function whose body the unit does not have.
  bool VisitCallExpr(CallExpr *Call) {
    if (Call->isInstantiationDependent() ||
        SM.isInSystemHeader(SM.getExpansionLoc(Call->getBeginLoc())))
      return true;
    const FunctionDecl *FD = Call->getDirectCallee();
    if (bodyIsElsewhere(FD, SM))
      Calls.push_back(Call);
    // What it returns, whichever override runs: what the caller does with
    // it is the same.
    if (userBodyNotInUnit(FD, SM) && holdsTensorsOrFields(FD->getReturnType()))
      Results.push_back(Call);
    return true;
  }

  std::vector<const FunctionDecl *> Found;
  std::vector<const CallExpr *> Calls;
  /// Calls, of functions whose bodies the unit does not have, that return
  /// tensors.
  std::vector<const CallExpr *> Results;
  llvm::SetVector<const CXXRecordDecl *> Classes;

private:
  const SourceManager &SM;
};

} // namespace

FunctionSummaries summariseUnit(ASTContext &Ctx, HistoryOptions Options) {
  FunctionSummaries Out;
  Summarisable Finder(Ctx);
  Finder.TraverseAST(Ctx);
  const SourceManager &SM = Ctx.getSourceManager();
  auto Where = [&](const Stmt *S) -> std::string {
    PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(S->getBeginLoc()));
    return P.isValid() ? std::string(P.getFilename()) + ":" +
                             std::to_string(P.getLine()) + ":" +
                             std::to_string(P.getColumn())
                       : "";
  };
  if (!Finder.Classes.empty()) {
    CallSites Sites(Ctx);
    HistoryAnalysis History(Ctx, &Sites, Options);
    for (const CXXRecordDecl *Class : Finder.Classes) {
      const CXXRecordDecl *Def = Class->getDefinition();
      for (const FieldDecl *Field : Def ? Def->fields() : Class->fields()) {
        if (!followsMember(Field, SM))
          continue;
        Carries C = History.memberState(Field);
        if (const Stmt *Write = History.memberWrite(Field); Write && C.mayHoldGraph())
          Out.addMember(Field->getQualifiedNameAsString(), Carries::graph(),
                        Where(Write));
      }
    }
  }
  if (!Finder.Calls.empty() || !Finder.Results.empty()) {
    CallSites Sites(Ctx);
    HistoryAnalysis History(Ctx, &Sites, Options);
    for (const CallExpr *Call : Finder.Results)
      Out.addUsed(FunctionSummaries::keyOf(Call->getDirectCallee()),
                  callerMayDifferentiate(Call, Ctx, Sites,
                                         /*OpaqueCallsMay=*/true, &History),
                  Where(Call));
    for (const CallExpr *Call : Finder.Calls) {
      const FunctionDecl *FD = Call->getDirectCallee();
      std::string Key;
      for (const ParmVarDecl *Param : FD->parameters()) {
        unsigned Index = Param->getFunctionScopeIndex();
        const Expr *Arg = argumentFor(Call, Index);
        if (!Arg || !holdsTensors(Param->getType()))
          continue;
        Carries C = History.history(Arg);
        if (!C.mayHoldGraph())
          continue;
        if (Key.empty())
          Key = FunctionSummaries::keyOf(FD);
        std::string At = Where(Call);
        bool Walked = walkedIn(iterationAround(Call, Ctx),
                               enclosingFunctionBody(Call, Ctx), Arg, Ctx);
        Out.addPassed(Key, Index, Carries::graph(), At, Walked);
      }
    }
  }
  if (Finder.Found.empty())
    return Out;
  HistoryOptions WithHistory = Options, WithNone = Options;
  WithHistory.UnresolvedParameters = Carries::graph();
  WithNone.UnresolvedParameters = Carries::none();
  HistoryAnalysis Handed(Ctx, nullptr, WithHistory);
  HistoryAnalysis NotHanded(Ctx, nullptr, WithNone);
  for (const FunctionDecl *FD : Finder.Found) {
    FunctionSummary S;
    bool Telling = false;
    unsigned Elements = elementsOf(FD->getReturnType());
    for (int E = -1; E < static_cast<int>(Elements); ++E) {
      ReturnSummary R{Handed.returnedBy(FD, E), NotHanded.returnedBy(FD, E)};
      auto Knows = [](Carries C) { return !C.mayBeUnknown() || C.requiresGrad(); };
      Telling |= Knows(R.Handed) || Knows(R.NotHanded);
      S[E] = R;
    }
    if (Telling)
      Out.add(FunctionSummaries::keyOf(FD), std::move(S));
  }
  return Out;
}

std::shared_ptr<const FunctionSummaries> loadSummaries(llvm::StringRef Path,
                                                       std::string &Error) {
  struct Loaded {
    llvm::sys::TimePoint<> Modified;
    uint64_t Size = 0;
    std::shared_ptr<const FunctionSummaries> Summaries;
  };
  static std::mutex Lock;
  static llvm::StringMap<Loaded> Cache;

  llvm::sys::fs::file_status Status;
  if (std::error_code EC = llvm::sys::fs::status(Path, Status)) {
    Error = "cannot read function summaries '" + Path.str() + "': " + EC.message();
    return nullptr;
  }
  std::lock_guard<std::mutex> Guard(Lock);
  auto It = Cache.find(Path);
  if (It != Cache.end() && It->second.Modified == Status.getLastModificationTime() &&
      It->second.Size == Status.getSize())
    return It->second.Summaries;
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buffer) {
    Error = "cannot read function summaries '" + Path.str() +
            "': " + Buffer.getError().message();
    return nullptr;
  }
  llvm::Expected<llvm::json::Value> V = llvm::json::parse((*Buffer)->getBuffer());
  if (!V) {
    Error = "function summaries '" + Path.str() +
            "' are not JSON: " + llvm::toString(V.takeError());
    return nullptr;
  }
  auto Summaries = std::make_shared<FunctionSummaries>();
  std::string Why;
  if (!FunctionSummaries::fromJSON(*V, *Summaries, Why)) {
    Error = "function summaries '" + Path.str() + "': " + Why;
    return nullptr;
  }
  Cache[Path] = {Status.getLastModificationTime(), Status.getSize(), Summaries};
  return Summaries;
}

} // namespace torch_tidy::analysis
