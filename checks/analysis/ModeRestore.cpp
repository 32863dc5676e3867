//===--- ModeRestore.cpp - Is a module set back to training before it trains?

#include "checks/analysis/ModeRestore.h"

#include "checks/analysis/BackwardPasses.h"
#include "checks/analysis/ExprUtils.h"
#include "checks/analysis/Optimizers.h"
#include "checks/analysis/TorchTypes.h"
#include "checks/analysis/TrainingSteps.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace torch_tidy::analysis {

namespace {
/// The calls a body makes, in order, outside the lambdas it defines.
class CallsIn : public RecursiveASTVisitor<CallsIn> {
public:
  llvm::SmallVector<const CallExpr *, 8> Calls;
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool VisitCallExpr(CallExpr *Call) {
    Calls.push_back(Call);
    return true;
  }
};
} // namespace

void ModeEffects::collect(const CallExpr *Call, unsigned Depth,
                          llvm::SmallVectorImpl<ModeEffect> &Out) {
  if (ModuleMode Mode = modeSetBy(Call, Ctx); Mode != ModuleMode::None) {
    Out.push_back({Mode, receiverPath(Call)});
    return;
  }
  const Stmt *Body = Depth < 3 ? userBodyCalled(Call, Ctx) : nullptr;
  if (!Body)
    return;
  // The changes of a body, in its own terms, are read once per body.
  auto [It, New] = BodyCache.try_emplace(Body);
  if (New) {
    llvm::SmallVector<ModeEffect, 2> InCallee;
    CallsIn Inner;
    Inner.TraverseStmt(const_cast<Stmt *>(Body));
    for (const CallExpr *C : Inner.Calls)
      collect(C, Depth + 1, InCallee);
    BodyCache[Body] = std::move(InCallee); // (a recursive call saw it empty)
  }
  for (const ModeEffect &E : BodyCache.find(Body)->second)
    Out.push_back({E.Mode, asCallerNames(E.Module, Call)});
}

llvm::ArrayRef<ModeEffect> ModeEffects::of(const Stmt *S) {
  auto [It, New] = Cache.try_emplace(S);
  if (New)
    if (const auto *Call = dyn_cast_or_null<CallExpr>(S))
      collect(Call, 0, It->second);
  return Cache.find(S)->second;
}

ModuleMode ModeEffects::leaves(const Stmt *Call, const ObjectPath &Module) {
  ModuleMode Left = ModuleMode::None;
  for (const ModeEffect &E : of(Call)) {
    bool Covers = ownsOrIs(E.Module, Module) || mayAlias(E.Module, Module);
    if (E.Mode == ModuleMode::Train && (Covers || !E.Module.Known))
      Left = ModuleMode::Train;
    else if (E.Mode == ModuleMode::Eval && Covers)
      Left = ModuleMode::Eval;
  }
  return Left;
}

llvm::SmallVector<ObjectPath, 1> ModeEffects::leftInEval(const Stmt *Call) {
  llvm::SmallVector<ObjectPath, 1> Left;
  for (const ModeEffect &E : of(Call))
    if (E.Mode == ModuleMode::Eval && E.Module.Known && !E.Module.Decls.empty() &&
        !llvm::is_contained(Left, E.Module) &&
        leaves(Call, E.Module) == ModuleMode::Eval)
      Left.push_back(E.Module);
  return Left;
}

/// Whether \p E names \p Module, an object that holds it or a part of it.
static bool handsModule(const Expr *E, const ObjectPath &Module) {
  ObjectPath Path = objectPath(E);
  return overlap(Path, Module) || mayAlias(Path, Module);
}

llvm::SmallVector<const Stmt *, 4>
trainingStepsOf(const ObjectPath &Module, const Stmt *Loop, ASTContext &Ctx) {
  llvm::SmallVector<const Stmt *, 4> Steps;
  if (!Loop || !Module.Known || Module.Decls.empty())
    return Steps;
  CallsIn Calls;
  Calls.TraverseStmt(const_cast<Stmt *>(Loop));
  llvm::DenseMap<const ValueDecl *, bool> HoldsModule;
  for (const CallExpr *Call : Calls.Calls) {
    if (isOptimizerStep(Call)) {
      ObjectPath Optimizer = receiverPath(Call);
      auto [It, New] = HoldsModule.try_emplace(Optimizer.leaf(), true);
      if (New && Optimizer.leaf())
        It->second = optimizedModules(Optimizer, Ctx).mayInclude(Module);
      if (It->second)
        Steps.push_back(Call);
      continue;
    }
    if (!callTrains(Call, Ctx))
      continue;
    bool Handed = llvm::any_of(Call->arguments(), [&](const Expr *Arg) {
      return handsModule(Arg, Module);
    });
    if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call))
      if (const Expr *Object = Member->getImplicitObjectArgument())
        Handed |= handsModule(Object, Module);
    const auto *MD = dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee());
    if (!Handed && MD && MD->getParent()->isLambda() && Module.Decls.front())
      Handed = mentions(userBodyCalled(Call, Ctx), Module.Decls.front());
    if (Handed)
      Steps.push_back(Call);
  }
  return Steps;
}

llvm::SmallVector<const Stmt *, 2>
stepsReachedInEvalMode(const Stmt *Eval, const ObjectPath &Module,
                       llvm::ArrayRef<const Stmt *> Steps,
                       const FunctionFlow &Flow, ModeEffects &Effects) {
  llvm::SmallVector<const Stmt *, 2> Reached;
  if (!Flow.valid())
    return Reached;
  for (const Stmt *Step : Steps) {
    if (Effects.leaves(Step, Module) == ModuleMode::Train)
      continue;
    auto Nearest = Flow.nearestBefore(Step, [&](const Stmt *S) {
      return S == Eval || (isa<CallExpr>(S) &&
                           Effects.leaves(S, Module) != ModuleMode::None);
    });
    if (llvm::is_contained(Nearest.Found, Eval))
      Reached.push_back(Step);
  }
  return Reached;
}

namespace {
/// Whether a statement turns gradients off: `requires_grad_(false)`,
/// `set_requires_grad(false)`.
class StopsGradients : public RecursiveASTVisitor<StopsGradients> {
public:
  explicit StopsGradients(const ASTContext &Ctx) : Ctx(Ctx) {}
  bool Found = false;
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *Call) {
    const CXXMethodDecl *MD = Call->getMethodDecl();
    if (MD && MD->getIdentifier() &&
        (MD->getName() == "requires_grad_" || MD->getName() == "set_requires_grad") &&
        Call->getNumArgs() > 0 && !isa<CXXDefaultArgExpr>(Call->getArg(0)) &&
        evaluateOptionalBool(Call->getArg(0), Ctx) == OptionalBool::False)
      Found = true;
    return !Found;
  }

private:
  const ASTContext &Ctx;
};

/// The range-for loops over a module's parameters in a body.
class ParameterLoops : public RecursiveASTVisitor<ParameterLoops> {
public:
  ParameterLoops(const ObjectPath &Module, const ASTContext &Ctx)
      : Module(Module), Ctx(Ctx) {}
  bool Found = false;
  bool VisitCXXForRangeStmt(CXXForRangeStmt *For) {
    const auto *Range = dyn_cast_or_null<CXXMemberCallExpr>(
        For->getRangeInit() ? stripWrappers(For->getRangeInit()) : nullptr);
    const CXXMethodDecl *MD = Range ? Range->getMethodDecl() : nullptr;
    if (!MD || !MD->getIdentifier() ||
        (MD->getName() != "parameters" && MD->getName() != "named_parameters"))
      return true;
    ObjectPath Of = objectPath(Range->getImplicitObjectArgument());
    if (!overlap(Of, Module) && !mayAlias(Of, Module))
      return true;
    StopsGradients Stops(Ctx);
    Stops.TraverseStmt(For->getBody());
    Found |= Stops.Found;
    return !Found;
  }

private:
  const ObjectPath &Module;
  const ASTContext &Ctx;
};
} // namespace

bool freezesParameters(const Stmt *Body, const ObjectPath &Module,
                       const ASTContext &Ctx) {
  if (!Body || !Module.Known)
    return false;
  ParameterLoops Loops(Module, Ctx);
  Loops.TraverseStmt(const_cast<Stmt *>(Body));
  return Loops.Found;
}

} // namespace torch_tidy::analysis
