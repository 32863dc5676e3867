//===--- BackwardPasses.cpp - Where gradients are computed ----------------===//

#include "checks/analysis/BackwardPasses.h"

#include "checks/analysis/ExprUtils.h"
#include "checks/analysis/FunctionFlow.h"
#include "checks/analysis/Names.h"
#include "checks/analysis/SummaryData.h"
#include "checks/analysis/LoopScope.h"
#include "checks/analysis/TorchTypes.h"
#include "checks/analysis/Walk.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace torch_tidy::analysis {

bool isOptimizerStep(const CallExpr *Call) {
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee());
  return MD && MD->getIdentifier() && MD->getName() == "step" &&
         derivesFrom(MD->getParent(), "torch::optim::Optimizer");
}

/// Whether a call computes gradients or steps an optimizer: the calls that
/// train.
static bool trainsAt(const CallExpr *Call) {
  return isBackwardFunction(Call->getDirectCallee()) || isOptimizerStep(Call);
}

namespace {
class BackwardFinder : public StmtWalk {
public:
  explicit BackwardFinder(bool IntoLambdas)
      : StmtWalk(Options{/*TemplateInstantiations=*/true}),
        IntoLambdas(IntoLambdas) {}
  llvm::SmallVector<const CallExpr *, 4> Backwards;
  bool Steps = false;
  bool enter(Stmt *S) override { return IntoLambdas || !isa<LambdaExpr>(S); }
  bool visit(Stmt *S) override {
    const auto *Call = dyn_cast<CallExpr>(S);
    if (!Call)
      return true;
    if (isBackwardFunction(Call->getDirectCallee()))
      Backwards.push_back(Call);
    Steps |= isOptimizerStep(Call);
    return true;
  }

private:
  bool IntoLambdas;
};
} // namespace

llvm::SmallVector<const CallExpr *, 4> backwardPassesIn(const Stmt *S) {
  BackwardFinder Finder(/*IntoLambdas=*/true);
  Finder.walk(S);
  return Finder.Backwards;
}

llvm::SmallVector<const CallExpr *, 4> backwardPassesInDecl(const Decl *D) {
  BackwardFinder Finder(/*IntoLambdas=*/true);
  Finder.walkDecl(D);
  return Finder.Backwards;
}

bool trainsIn(const Stmt *S) {
  BackwardFinder Finder(/*IntoLambdas=*/false);
  Finder.walk(S);
  return Finder.Steps || !Finder.Backwards.empty();
}

namespace {
/// The first statement that trains, in the order the walk meets them.
class TrainingFinder : public StmtWalk {
public:
  TrainingFinder() : StmtWalk(Options{/*TemplateInstantiations=*/true}) {}
  const Stmt *First = nullptr;
  bool visit(Stmt *S) override {
    const auto *Call = dyn_cast<CallExpr>(S);
    if (!Call)
      return true;
    // In a template, a call of a dependent member named so (`opt.step()`,
    // `loss.backward()`); a member read is no call (`d.step`, the row
    // stride of an image).
    const Expr *Callee = Call->getCallee()->IgnoreParenImpCasts();
    if (trainsAt(Call))
      First = Call;
    else if (const auto *Member = dyn_cast<CXXDependentScopeMemberExpr>(Callee))
      First = namesTraining(Member->getMember()) ? Member : nullptr;
    else if (const auto *Member = dyn_cast<UnresolvedMemberExpr>(Callee))
      First = namesTraining(Member->getMemberName()) ? Member : nullptr;
    return First == nullptr;
  }

private:
  static bool namesTraining(DeclarationName Name) {
    return Name.isIdentifier() &&
           (Name.getAsIdentifierInfo()->getName() == "backward" ||
            Name.getAsIdentifierInfo()->getName() == "step");
  }
};
} // namespace

const Stmt *firstTrainingIn(ASTContext &Ctx) {
  TrainingFinder Finder;
  for (const Decl *D : userDecls(Ctx)) {
    Finder.walkDecl(D);
    if (Finder.First)
      break;
  }
  return Finder.First;
}

static bool runsBackwardPass(const FunctionDecl *FD,
                             const FunctionSummaries *Summaries,
                             std::string *At, unsigned Depth,
                             llvm::SmallPtrSetImpl<const FunctionDecl *> &Seen) {
  if (!FD || Depth > 4 || !Seen.insert(FD->getCanonicalDecl()).second ||
      isInNamespace(FD, {"torch", "at", "c10", "std"}))
    return false;
  const FunctionDecl *Def = nullptr;
  if (!FD->hasBody(Def) || !Def) {
    const std::string *Where = Summaries ? Summaries->runsBackward(FD) : nullptr;
    if (Where && At)
      *At = *Where;
    return Where != nullptr;
  }
  const SourceManager &SM = Def->getASTContext().getSourceManager();
  if (SM.isInSystemHeader(SM.getExpansionLoc(Def->getLocation())))
    return false;
  class Calls : public StmtWalk {
  public:
    Calls() : StmtWalk(Options{/*TemplateInstantiations=*/true}) {}
    const CallExpr *Backward = nullptr;
    llvm::SmallVector<const FunctionDecl *, 8> Callees;
    bool enter(Stmt *S) override { return !isa<LambdaExpr>(S); }
    bool visit(Stmt *S) override {
      const auto *Call = dyn_cast<CallExpr>(S);
      if (!Call)
        return true;
      const FunctionDecl *Callee = Call->getDirectCallee();
      if (isBackwardFunction(Callee))
        Backward = Call;
      else if (Callee)
        Callees.push_back(Callee);
      return !Backward;
    }
  } Found;
  Found.walk(Def->getBody());
  if (Found.Backward) {
    if (At) {
      PresumedLoc P = SM.getPresumedLoc(
          SM.getExpansionLoc(Found.Backward->getBeginLoc()));
      *At = P.isValid() ? std::string(P.getFilename()) + ":" +
                              std::to_string(P.getLine()) + ":" +
                              std::to_string(P.getColumn())
                        : "";
    }
    return true;
  }
  return llvm::any_of(Found.Callees, [&](const FunctionDecl *Callee) {
    return runsBackwardPass(Callee, Summaries, At, Depth + 1, Seen);
  });
}

bool runsBackwardPass(const FunctionDecl *FD, const FunctionSummaries *Summaries,
                      std::string *At) {
  llvm::SmallPtrSet<const FunctionDecl *, 8> Seen;
  return runsBackwardPass(FD, Summaries, At, 0, Seen);
}

bool buildsDifferentiableGradients(const CallExpr *Call, const ASTContext &Ctx) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!isBackwardFunction(Callee) || isa<CXXMemberCallExpr>(Call) ||
      !Callee->getIdentifier() || Callee->getName() != "grad")
    return false;
  std::optional<unsigned> Index = parameterIndex(Callee, "create_graph");
  return Index && *Index < Call->getNumArgs() &&
         !isa<CXXDefaultArgExpr>(Call->getArg(*Index)) &&
         evaluateOptionalBool(Call->getArg(*Index), Ctx) != OptionalBool::False;
}

bool trainsBesidesDifferentiableGradients(const Stmt *S, const ASTContext &Ctx) {
  BackwardFinder Finder(/*IntoLambdas=*/false);
  Finder.walk(S);
  return Finder.Steps ||
         llvm::any_of(Finder.Backwards, [&](const CallExpr *Backward) {
           return !buildsDifferentiableGradients(Backward, Ctx);
         });
}

namespace {
/// The variables and members an expression reads, leaving out what a value
/// cut from the graph reads (`v.detach()`, `v.item()`).
class HistoryReads : public StmtWalk {
public:
  explicit HistoryReads(const ASTContext &Ctx) : Ctx(Ctx) {}
  llvm::SmallVector<const Expr *, 8> Reads;
  bool enter(Stmt *S) override {
    const auto *E = dyn_cast<Expr>(S);
    return !E || !cutsHistory(E, Ctx);
  }
  bool visit(Stmt *S) override {
    if (const auto *Member = dyn_cast<MemberExpr>(S);
        Member && isa<FieldDecl>(Member->getMemberDecl()))
      Reads.push_back(Member);
    else if (const auto *Ref = dyn_cast<DeclRefExpr>(S);
             Ref && isa<VarDecl, BindingDecl>(Ref->getDecl()))
      Reads.push_back(Ref);
    return true;
  }

private:
  const ASTContext &Ctx;
};

/// Whether \p Roots, followed back through the function of \p Flow, read
/// \p Target: a local of that function brings only what the definitions
/// that reach its read stored (a later `v = v.detach();` cuts what `v` held
/// before from every read after it); any other variable or member read,
/// what \p Sources says it is computed from. What a value cut from the
/// graph reads (`v.detach()`, `v.item()`) is not followed.
bool rootsTakeHistory(const Expr *Roots, const ValueDecl *Target,
                      const TensorSources &Sources, const FunctionFlow &Flow,
                      const ASTContext &Ctx) {
  const FunctionDecl *Function = Flow.function();
  llvm::SmallPtrSet<const Expr *, 16> Seen;
  llvm::SmallVector<const Expr *, 8> Work{Roots};
  while (!Work.empty()) {
    const Expr *Cur = Work.pop_back_val();
    if (!Cur || !Seen.insert(Cur).second)
      continue;
    HistoryReads Reads(Ctx);
    Reads.walk(const_cast<Expr *>(Cur));
    for (const Expr *Read : Reads.Reads) {
      const ValueDecl *D = referencedDecl(Read);
      if (D == Target)
        return true;
      const auto *Var = dyn_cast_or_null<VarDecl>(D);
      if (Var && isa<DeclRefExpr>(Read) && Var->hasLocalStorage() &&
          !isa<ParmVarDecl>(Var) && Var->getDeclContext() == Function) {
        for (const Definition &Def : Flow.reachingDefinitions(Var, Read))
          Work.append(Def.Values.begin(), Def.Values.end());
        continue;
      }
      if (D && Sources.historySourcesOf(Read, Ctx).contains(Target))
        return true;
    }
  }
  return false;
}
} // namespace

bool walksHistoryOf(const CallExpr *Backward, const ValueDecl *Target,
                    const TensorSources &Sources, const ASTContext &Ctx,
                    const FunctionFlow *Flow) {
  const Expr *Roots = backwardRoots(Backward);
  if (!Roots || !Target)
    return false;
  if (Sources.historySourcesOf(Roots, Ctx).contains(Target)) {
    // Where the flow of the function is known: only what reaches the
    // backward pass counts.
    if (!Flow || !Flow->valid() || !Flow->function())
      return true;
    return rootsTakeHistory(Roots, Target, Sources, *Flow, Ctx);
  }
  // Named in the roots but not a source TensorSources follows (a field of
  // a struct of the user's).
  return mentions(Roots, Target) && !Sources.sourcesOf(Roots).contains(Target);
}

bool walksGraphOfValue(const CallExpr *Backward, const Expr *Value,
                       const TensorSources &Sources) {
  const Expr *Roots = backwardRoots(Backward);
  if (!Roots || !Value)
    return false;
  DeclSet FromRoots = Sources.sourcesOf(Roots);
  if (const ValueDecl *D = referencedDecl(Value))
    return FromRoots.contains(D);
  // An expression: the tensors it is computed from directly.
  for (const ValueDecl *D : Sources.namedIn(Value))
    if (FromRoots.contains(D))
      return true;
  return false;
}

namespace {
/// Whether \p S runs a forward pass: itself, or in the body of a function
/// of the unit that it calls (`losses = compute_losses(model, x)`) or a
/// constructor it runs (`Losses(model, x)`, with its member initializers),
/// a few calls deep.
bool runsForward(const Stmt *S, const NameGuesses &Names, unsigned Depth = 0) {
  if (!S)
    return false;
  if (!forwardCallsIn(S, Names).empty())
    return true;
  if (Depth >= 3)
    return false;
  class Calls : public StmtWalk {
  public:
    llvm::SmallVector<const FunctionDecl *, 4> Callees;
    bool visit(Stmt *S) override {
      const FunctionDecl *Callee = nullptr;
      if (const auto *Call = dyn_cast<CallExpr>(S))
        Callee = Call->getDirectCallee();
      else if (const auto *Construct = dyn_cast<CXXConstructExpr>(S))
        Callee = Construct->getConstructor();
      if (Callee)
        if (const FunctionDecl *Def = Callee->getDefinition();
            Def && Def->hasBody() && !llvm::is_contained(Callees, Def))
          Callees.push_back(Def);
      return true;
    }
  } Found;
  Found.walk(S);
  return llvm::any_of(Found.Callees, [&](const FunctionDecl *Def) {
    const SourceManager &SM = Def->getASTContext().getSourceManager();
    if (SM.isInSystemHeader(Def->getLocation()))
      return false;
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Def))
      for (const CXXCtorInitializer *Init : Ctor->inits())
        if (Init->isWritten() && runsForward(Init->getInit(), Names, Depth + 1))
          return true;
    return runsForward(Def->getBody(), Names, Depth + 1);
  });
}

/// Whether \p D, a variable, is declared inside \p S.
bool declaredIn(const ValueDecl *D, const Stmt *S, const SourceManager &SM) {
  SourceLocation Loc = D->getLocation();
  return SM.isBeforeInTranslationUnit(S->getBeginLoc(), Loc) &&
         SM.isBeforeInTranslationUnit(Loc, S->getEndLoc());
}
} // namespace

bool walksGraphBuiltBefore(const CallExpr *Backward, const Stmt *Loop,
                           ASTContext &Ctx, const NameGuesses &Names) {
  const Expr *Roots = backwardRoots(Backward);
  const Stmt *Body = enclosingFunctionBody(Backward, Ctx);
  if (!Roots || !Body || runsForward(Roots, Names))
    return false;
  const SourceManager &SM = Ctx.getSourceManager();
  TensorSources Sources(Body);
  bool FromOutside = false;
  for (const ValueDecl *D : Sources.sourcesOf(Roots)) {
    FromOutside |= !isa<VarDecl, BindingDecl>(D) || !declaredIn(D, Loop, SM);
    for (const Expr *Value : Sources.storedValues(D))
      if (contains(Loop, Value) && runsForward(Value, Names))
        return false; // a new graph every iteration
  }
  return FromOutside;
}

bool retainsGraph(const CallExpr *Backward, const ASTContext &Ctx) {
  const FunctionDecl *Callee = Backward->getDirectCallee();
  if (!Callee)
    return false;
  for (llvm::StringRef Name : {"retain_graph", "create_graph"}) {
    std::optional<unsigned> Index = parameterIndex(Callee, Name);
    if (Index && *Index < Backward->getNumArgs() &&
        evaluateOptionalBool(Backward->getArg(*Index), Ctx) == OptionalBool::True)
      return true;
  }
  return false;
}

const Stmt *iterationAround(const Stmt *S, ASTContext &Ctx) {
  if (const Stmt *Loop = innermostLoop(S, Ctx))
    return loopBody(Loop);
  return enclosingFunctionBody(S, Ctx);
}

/// Whether a backward pass that frees its graph runs in \p Scope and walks
/// the graph of \p Value, itself.
static bool walkedDirectlyIn(const Stmt *Scope, const TensorSources &Sources,
                             const Expr *Value, const ASTContext &Ctx) {
  for (const CallExpr *Backward : backwardPassesIn(Scope))
    if (!retainsGraph(Backward, Ctx) && walksGraphOfValue(Backward, Value, Sources))
      return true;
  return false;
}

/// The variable whose member chain \p E is (`losses` for `losses.total`).
static const ValueDecl *baseVariable(const Expr *E) {
  E = stripWrappers(E);
  while (const auto *Member = dyn_cast<MemberExpr>(E))
    E = stripWrappers(Member->getBase());
  return dyn_cast_or_null<VarDecl>(referencedDecl(E));
}

/// Whether \p Value names the struct whose field \p Backward walked
/// (`losses.total.backward(); return {losses, norm};`).
static bool partWalked(const CallExpr *Backward, const Expr *Value) {
  const Expr *Roots = backwardRoots(Backward);
  const ValueDecl *Base = Roots ? baseVariable(Roots) : nullptr;
  return Base && mentions(Value, Base);
}

/// Whether \p Call runs a function of the unit that, once per call (not in
/// a loop of its own), walks with a backward pass the graph of what it
/// returns: `auto l = loss(...); l.backward(); optimizer.step(); return {l};`.
static bool returnsWalkedGraph(const CallExpr *Call, ASTContext &Ctx) {
  const FunctionDecl *FD = Call->getDirectCallee();
  const FunctionDecl *Def = FD ? FD->getDefinition() : nullptr;
  if (!Def || !Def->hasBody() ||
      Ctx.getSourceManager().isInSystemHeader(Def->getLocation()))
    return false;
  const Stmt *Body = Def->getBody();
  TensorSources Sources(Body);
  const SourceManager &SM = Ctx.getSourceManager();
  auto Returned = returnedValues(Body);
  if (Returned.empty())
    return false;
  // The backward passes that free their graph, run once per call.
  llvm::SmallVector<const CallExpr *, 4> OncePerCall;
  for (const CallExpr *Backward : backwardPassesIn(Body))
    if (!retainsGraph(Backward, Ctx) && iterationAround(Backward, Ctx) == Body)
      OncePerCall.push_back(Backward);
  return llvm::all_of(Returned, [&](const Expr *Value) {
    return llvm::any_of(OncePerCall, [&](const CallExpr *Backward) {
      return SM.isBeforeInTranslationUnit(Backward->getEndLoc(),
                                          Value->getBeginLoc()) &&
             (walksGraphOfValue(Backward, Value, Sources) ||
              partWalked(Backward, Value));
    });
  });
}

bool walkedIn(const Stmt *Scope, const Stmt *FunctionBody, const Expr *Value,
              ASTContext &Ctx) {
  if (!Scope || !FunctionBody || !Value)
    return false;
  TensorSources Sources(FunctionBody);
  if (walkedDirectlyIn(Scope, Sources, Value, Ctx))
    return true;
  // Computed in the iteration by a call whose own backward pass walked it.
  auto ByCallee = [&](const Expr *E) {
    const auto *Call = dyn_cast<CallExpr>(stripWrappers(E));
    return Call && contains(Scope, Call) && returnsWalkedGraph(Call, Ctx);
  };
  if (ByCallee(Value))
    return true;
  // A variable (or a field of one) that only such calls store into.
  const ValueDecl *Var = baseVariable(Value);
  if (!Var || isa<ParmVarDecl>(Var))
    return false;
  auto Stored = Sources.storedValues(Var);
  return !Stored.empty() && llvm::all_of(Stored, ByCallee);
}

} // namespace torch_tidy::analysis
