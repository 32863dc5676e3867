//===--- BackwardPasses.cpp - Where gradients are computed ----------------===//

#include "checks/analysis/BackwardPasses.h"

#include "checks/analysis/ExprUtils.h"
#include "checks/analysis/History.h"
#include "checks/analysis/LoopScope.h"
#include "checks/analysis/TorchTypes.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace torch_tidy::analysis {

bool isOptimizerStep(const CallExpr *Call) {
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee());
  return MD && MD->getIdentifier() && MD->getName() == "step" &&
         derivesFrom(MD->getParent(), "torch::optim::Optimizer");
}

namespace {
class BackwardFinder : public RecursiveASTVisitor<BackwardFinder> {
public:
  explicit BackwardFinder(bool IntoLambdas) : IntoLambdas(IntoLambdas) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  llvm::SmallVector<const CallExpr *, 4> Backwards;
  bool Steps = false;
  bool TraverseLambdaExpr(LambdaExpr *Lambda) {
    return IntoLambdas ? RecursiveASTVisitor::TraverseLambdaExpr(Lambda) : true;
  }
  bool VisitCallExpr(CallExpr *Call) {
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
  Finder.TraverseStmt(const_cast<Stmt *>(S));
  return Finder.Backwards;
}

llvm::SmallVector<const CallExpr *, 4> backwardPassesInDecl(const Decl *D) {
  BackwardFinder Finder(/*IntoLambdas=*/true);
  Finder.TraverseDecl(const_cast<Decl *>(D));
  return Finder.Backwards;
}

bool trainsIn(const Stmt *S) {
  BackwardFinder Finder(/*IntoLambdas=*/false);
  Finder.TraverseStmt(const_cast<Stmt *>(S));
  return Finder.Steps || !Finder.Backwards.empty();
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
  Finder.TraverseStmt(const_cast<Stmt *>(S));
  return Finder.Steps ||
         llvm::any_of(Finder.Backwards, [&](const CallExpr *Backward) {
           return !buildsDifferentiableGradients(Backward, Ctx);
         });
}

bool walksGraphOf(const CallExpr *Backward, const ValueDecl *Target,
                  const TensorSources &Sources) {
  const Expr *Roots = backwardRoots(Backward);
  if (!Roots || !Target)
    return false;
  return mentions(Roots, Target) || Sources.sourcesOf(Roots).contains(Target);
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
bool runsForward(const Expr *E) { return !forwardCallsIn(E).empty(); }

/// Whether \p D, a variable, is declared inside \p S.
bool declaredIn(const ValueDecl *D, const Stmt *S, const SourceManager &SM) {
  SourceLocation Loc = D->getLocation();
  return SM.isBeforeInTranslationUnit(S->getBeginLoc(), Loc) &&
         SM.isBeforeInTranslationUnit(Loc, S->getEndLoc());
}
} // namespace

bool walksGraphBuiltBefore(const CallExpr *Backward, const Stmt *Loop,
                           ASTContext &Ctx) {
  const Expr *Roots = backwardRoots(Backward);
  const Stmt *Body = enclosingFunctionBody(Backward, Ctx);
  if (!Roots || !Body || runsForward(Roots))
    return false;
  const SourceManager &SM = Ctx.getSourceManager();
  TensorSources Sources(Body);
  bool FromOutside = false;
  for (const ValueDecl *D : Sources.sourcesOf(Roots)) {
    FromOutside |= !isa<VarDecl, BindingDecl>(D) || !declaredIn(D, Loop, SM);
    for (const Expr *Value : Sources.storedValues(D))
      if (contains(Loop, Value) && runsForward(Value))
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

bool walkedIn(const Stmt *Scope, const Stmt *FunctionBody, const Expr *Value,
              const ASTContext &Ctx) {
  if (!Scope || !FunctionBody)
    return false;
  TensorSources Sources(FunctionBody);
  for (const CallExpr *Backward : backwardPassesIn(Scope))
    if (!retainsGraph(Backward, Ctx) && walksGraphOfValue(Backward, Value, Sources))
      return true;
  return false;
}

} // namespace torch_tidy::analysis
