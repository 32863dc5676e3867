//===--- Summariser.cpp - A unit's function summaries, made with H, D, O --===//

#include "checks/analysis/Summariser.h"
#include "checks/analysis/BackwardPasses.h"
#include "checks/analysis/Differentiated.h"
#include "checks/analysis/ExprUtils.h"
#include "checks/analysis/GradGuard.h"
#include "checks/analysis/LoopScope.h"
#include "checks/analysis/TorchTypes.h"
#include "checks/analysis/Walk.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SetVector.h"

#include <set>

using namespace clang;

namespace torch_tidy::analysis {

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

/// The keys a call of \p FD is summarised under: its own and, for an
/// instantiation of a template, its pattern's, which a unit that has only
/// the template (a header checked alone) asks for.
static llvm::SmallVector<std::string, 2> calledKeys(const FunctionDecl *FD) {
  llvm::SmallVector<std::string, 2> Keys{FunctionSummaries::keyOf(FD)};
  if (const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern();
      Pattern && Pattern != FD)
    if (std::string Key = FunctionSummaries::keyOf(Pattern); Key != Keys[0])
      Keys.push_back(std::move(Key));
  return Keys;
}

namespace {

/// The functions of the main file that another unit may call.
class Summarisable : public StmtWalk {
public:
  explicit Summarisable(ASTContext &Ctx)
      : StmtWalk(Options{/*TemplateInstantiations=*/false,
                         /*LambdaBodies=*/false}),
        SM(Ctx.getSourceManager()) {}

  bool visitDecl(Decl *D) override {
    auto *FD = dyn_cast<FunctionDecl>(D);
    if (!FD)
      return true;
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
        !SM.isInMainFile(SM.getExpansionLoc(FD->getLocation())))
      return true;
    // A method defined in its class is in every unit that sees the class.
    if (const auto *MD = dyn_cast<CXXMethodDecl>(FD);
        MD && !FD->isOutOfLine())
      return true;
    if (holdsTensorsOrFields(FD->getReturnType()))
      Found.push_back(FD);
    if (llvm::any_of(FD->parameters(), [](const ParmVarDecl *Param) {
          return holdsTensorsOrFields(Param->getType().getNonReferenceType());
        }))
      WithTensorParameters.push_back(FD);
    return true;
  }

  /// A call of a function whose body the unit does not have.
  bool visit(Stmt *S) override {
    auto *Call = dyn_cast<CallExpr>(S);
    if (!Call)
      return true;
    if (Call->isInstantiationDependent() ||
        SM.isInSystemHeader(SM.getExpansionLoc(Call->getBeginLoc())))
      return true;
    const FunctionDecl *FD = Call->getDirectCallee();
    // A virtual method's call passes its arguments to whichever override
    // runs, in this unit or another.
    const auto *Method = dyn_cast_or_null<CXXMethodDecl>(FD);
    if (bodyIsElsewhere(FD, SM) ||
        (Method && mayBeOverridden(Method) && !isLibraryFunction(Method) &&
         !SM.isInSystemHeader(Method->getLocation())))
      Calls.push_back(Call);
    // What it returns, whichever override runs: what the caller does with
    // it is the same.
    // A function whose body is in a header too: a unit that includes it
    // and calls it nowhere knows its calls only from here.
    if (callsSummarised(FD, SM) && holdsTensorsOrFields(FD->getReturnType()))
      Results.push_back(Call);
    return true;
  }

  /// The functions that return tensors, and those handed tensors.
  std::vector<const FunctionDecl *> Found, WithTensorParameters;
  std::vector<const CallExpr *> Calls;
  /// Calls, of functions whose bodies the unit does not have, that return
  /// tensors.
  std::vector<const CallExpr *> Results;
  llvm::SetVector<const CXXRecordDecl *> Classes;

private:
  const SourceManager &SM;
};

/// The user's functions the unit refers to anywhere (the main file and its
/// headers, templates and their instantiations), so that the summaries know
/// which functions of a program no code calls.
class ReferenceFinder : public StmtWalk {
public:
  ReferenceFinder(const SourceManager &SM, FunctionSummaries &Out)
      : StmtWalk(Options{/*TemplateInstantiations=*/true,
                         /*LambdaBodies=*/true}),
        SM(SM), Out(Out) {}

  bool enterDecl(Decl *D) override {
    // What LibTorch's and the standard library's own code calls is not the
    // user's (a user's functor called by std::thread is an operator, which
    // runs unnamed).
    return isa<TranslationUnitDecl>(D) || D->getLocation().isInvalid() ||
           !SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation()));
  }

  bool visitDecl(Decl *D) override {
    if (const auto *FD = dyn_cast<FunctionDecl>(D);
        FD && FD->isMain() && FD->doesThisDeclarationHaveABody())
      Out.addProgram();
    return true;
  }

  bool visit(Stmt *S) override {
    if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
      add(Ref->getDecl());
    else if (const auto *Member = dyn_cast<MemberExpr>(S))
      add(Member->getMemberDecl());
    // A call a template leaves unresolved may call any of the candidates,
    // or, through a dependent object, any function of its name.
    else if (const auto *Overloads = dyn_cast<OverloadExpr>(S)) {
      for (const NamedDecl *D : Overloads->decls())
        add(D->getUnderlyingDecl());
      addName(Overloads->getName());
    } else if (const auto *Dependent = dyn_cast<CXXDependentScopeMemberExpr>(S))
      addName(Dependent->getMember());
    else if (const auto *Dependent = dyn_cast<DependentScopeDeclRefExpr>(S))
      addName(Dependent->getDeclName());
    return true;
  }

private:
  void add(const Decl *D) {
    if (const auto *Template = dyn_cast_or_null<FunctionTemplateDecl>(D))
      D = Template->getTemplatedDecl();
    const auto *FD = dyn_cast_or_null<FunctionDecl>(D);
    if (!FD || SM.isInSystemHeader(SM.getExpansionLoc(FD->getLocation())) ||
        isLibraryFunction(FD))
      return;
    // A call of a template's instantiation runs the template's code.
    if (const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern();
        Pattern && Pattern != FD)
      add(Pattern);
    if (Seen.insert(FD->getCanonicalDecl()).second)
      Out.addReference(FunctionSummaries::keyOf(FD));
  }
  void addName(DeclarationName Name) {
    if (Name.isIdentifier())
      Out.addReference(Name.getAsString(), /*Dependent=*/true);
  }

  const SourceManager &SM;
  FunctionSummaries &Out;
  llvm::SmallPtrSet<const FunctionDecl *, 32> Seen;
};

} // namespace

FunctionSummaries summariseUnit(ASTContext &Ctx, HistoryOptions Options) {
  FunctionSummaries Out;
  ReferenceFinder(Ctx.getSourceManager(), Out)
      .walkDecl(Ctx.getTranslationUnitDecl());
  Summarisable Finder(Ctx);
  Finder.walkDecl(Ctx.getTranslationUnitDecl());
  const SourceManager &SM = Ctx.getSourceManager();
  auto Where = [&](const Stmt *S) -> std::string {
    PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(S->getBeginLoc()));
    return P.isValid() ? std::string(P.getFilename()) + ":" +
                             std::to_string(P.getLine()) + ":" +
                             std::to_string(P.getColumn())
                       : "";
  };
  // Whether the unit trains at all: a project none of whose units does
  // differentiates nothing.
  if (const Stmt *Training = firstTrainingIn(Ctx)) {
    std::string At = Where(Training);
    Out.addTraining(llvm::StringRef(At.empty() ? "?" : At));
  } else
    Out.addTraining(llvm::StringRef());
  // Callers in other units count as they do for the checks: a function
  // every call of which runs under a guard elsewhere is entered with grad
  // mode off here, and so are the calls it makes, however many units out
  // the guard is (one more each round).
  CallSites Sites(Ctx, Options.Summaries);
  // The grad mode of every call of a function whose body is in another
  // unit (G, with this unit's callers, and theirs elsewhere), and those
  // whose address escapes here, so that not every caller is known.
  auto Mode = [](GradState S) {
    return S == GradState::NotRecording ? CalledSummary::Off
           : S == GradState::Recording  ? CalledSummary::On
                                        : CalledSummary::Unknown;
  };
  for (const auto &[FD, Calls] : Sites.all()) {
    if (!callsSummarised(FD, SM) || !FD->isExternallyVisible())
      continue;
    llvm::SmallVector<std::string, 2> Keys = calledKeys(FD);
    for (const CallExpr *Call : Calls)
      if (!Call->isInstantiationDependent()) {
        auto State = Mode(gradStateAt(Call, Ctx, &Sites, Options.names()));
        for (const std::string &Key : Keys)
          Out.addCalled(Key, State, Where(Call));
      }
  }
  for (const FunctionDecl *FD : Sites.escaping())
    if (callsSummarised(FD, SM) && FD->isExternallyVisible())
      for (const std::string &Key : calledKeys(FD))
        Out.addCalled(Key, CalledSummary::Unknown, "");
  if (!Finder.Classes.empty()) {
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
  // What the unit's code does with what each member of the user's holds
  // (D at every expression that names it), so that a unit that keeps a
  // value in one knows whether any reader wants its history. Past a few
  // reads, a member is taken to be differentiated somewhere.
  if (auto Reads = tensorMemberReads(Ctx); !Reads.empty()) {
    constexpr size_t MostReads = 32;
    HistoryAnalysis History(Ctx, &Sites, Options);
    for (const auto &[Field, Exprs] : Reads) {
      const MemberExpr *At = nullptr;
      bool May = Exprs.size() > MostReads ||
                 memberReadMayBeDifferentiated(Exprs, Ctx, Sites, &History, &At);
      Out.addMemberRead(Field->getQualifiedNameAsString(), May,
                        Where(At ? At : Exprs.front()));
    }
  }
  if (!Finder.Calls.empty() || !Finder.Results.empty()) {
    HistoryAnalysis History(Ctx, &Sites, Options);
    for (const CallExpr *Call : Finder.Results) {
      bool May = callerMayDifferentiate(Call, Ctx, Sites,
                                        /*OpaqueCallsMay=*/true, &History);
      Out.addUsed(FunctionSummaries::keyOf(Call->getDirectCallee()), May,
                  Where(Call),
                  !May && historyDiscarded(Call, Ctx, Sites, nullptr, &History));
    }
    for (const CallExpr *Call : Finder.Calls) {
      const FunctionDecl *FD = Call->getDirectCallee();
      std::string Key;
      for (const ParmVarDecl *Param : FD->parameters()) {
        unsigned Index = Param->getFunctionScopeIndex();
        const Expr *Arg = argumentFor(Call, Index);
        // A TorchScript value (an IValue a traced backbone returns) carries
        // its tensors' history as a tensor does.
        if (!Arg || !mayHoldTensors(Param->getType()))
          continue;
        Carries C = History.history(Arg);
        if (!C.mayHoldGraph())
          continue;
        if (Key.empty())
          Key = FunctionSummaries::keyOf(FD);
        std::string At = Where(Call);
        bool Walked = walkedIn(iterationAround(Call, Ctx),
                               enclosingFunctionBody(Call, Ctx), Arg, Ctx);
        auto [From, FromName] =
            FunctionSummaries::caller(enclosingFunction(Call, Ctx));
        Out.addPassed(Key, Index, Carries::graph(), At, Walked, From,
                      FromName);
      }
    }
  }
  // Which parameters each function may differentiate (D), so that a
  // unit that hands it a tensor need not assume it does.
  if (!Finder.WithTensorParameters.empty()) {
    HistoryAnalysis History(Ctx, &Sites, Options);
    for (const FunctionDecl *FD : Finder.WithTensorParameters) {
      // Those it may, and of them those the code in view does (evidence
      // for a caller that counts nothing out of view).
      std::set<unsigned> May, InView;
      for (const ParmVarDecl *Param : FD->parameters())
        if (holdsTensorsOrFields(Param->getType().getNonReferenceType()) &&
            parameterMayBeDifferentiated(FD, Param, Ctx, Sites, &History)) {
          May.insert(Param->getFunctionScopeIndex());
          if (parameterMayBeDifferentiated(FD, Param, Ctx, Sites, &History,
                                           /*OpaqueCallsMay=*/false))
            InView.insert(Param->getFunctionScopeIndex());
        }
      Out.addParameters(FunctionSummaries::keyOf(FD), May, &InView);
    }
  }
  // Which of them run a backward pass of their own (a model's forward that
  // computes forces as the gradient of its energy), so that a unit that
  // runs them knows they need grad mode on.
  {
    llvm::SmallPtrSet<const FunctionDecl *, 16> Asked;
    for (const auto *List : {&Finder.Found, &Finder.WithTensorParameters})
      for (const FunctionDecl *FD : *List) {
        std::string At;
        if (Asked.insert(FD).second &&
            runsBackwardPass(FD, Options.Summaries.get(), &At))
          Out.addBackward(FunctionSummaries::keyOf(FD), At);
      }
  }
  // For a method of a class that is no module (one that holds a model and
  // returns what it computes), whether a call of it here may differentiate
  // its result: a unit that calls it elsewhere and only reads the result
  // learns that the result serves training too (see the evaluation
  // check's forwards by another name). The calls of a function defined in
  // a header are used()'s, from every unit.
  {
    std::optional<HistoryAnalysis> History;
    for (const FunctionDecl *FD : Finder.Found) {
      const auto *Method = dyn_cast<CXXMethodDecl>(FD);
      if (!Method || Method->isStatic() || isModuleClass(Method->getParent()) ||
          Method->getParent()->isLambda() || callsSummarised(FD, SM))
        continue;
      auto Calls = Sites.of(FD);
      if (!Calls)
        continue;
      for (const CallExpr *Call : *Calls) {
        if (!History)
          History.emplace(Ctx, &Sites, Options);
        if (callerMayDifferentiate(Call, Ctx, Sites, /*OpaqueCallsMay=*/false,
                                   &*History)) {
          Out.addDifferentiatedWhereDefined(FunctionSummaries::keyOf(FD),
                                            Where(Call));
          break;
        }
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

} // namespace torch_tidy::analysis
