//===--- CarriedState.cpp - What a write carries over from the last iteration //

#include "checks/analysis/CarriedState.h"

#include "checks/analysis/ExprUtils.h"
#include "checks/analysis/TorchTypes.h"
#include "checks/analysis/Walk.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace torch_tidy::analysis {

/// Locals followed from one value, at most.
static constexpr unsigned MaxDepth = 6;

CarriedState::CarriedState(HistoryAnalysis &History, const Lifetime &Life,
                           const ValueDecl *Target)
    : History(History), Life(Life), Target(Target) {}

bool CarriedState::readsCarriedHistory(const Expr *Read) {
  auto Known = CarriedReads.find(Read);
  if (Known != CarriedReads.end())
    return Known->second;
  bool Result = false;
  const FunctionFlow *Flow = History.flowAt(Read);
  if (Flow && Flow->valid()) {
    const Stmt *Boundary = Life.Kind == Lifetime::Loop ? Life.LoopStmt : nullptr;
    FunctionFlow::Carried Carried =
        Flow->carriedDefinitions(Target, Read, Boundary);
    if (Carried.Crosses && Life.Kind == Lifetime::Call) {
      // Left by the previous call: it holds history when this write gives
      // it some, which the caller decides from the written value.
      Result = true;
    } else if (Carried.Crosses) {
      // What the assignments that may have left the value there computed.
      for (const Definition &Def : Carried.Defs) {
        for (const Expr *Value : Def.Values)
          Result |= History.requiresGrad(Value);
        if (Result)
          break;
      }
    }
  } else {
    Result = true; // no flow: assume the worst
  }
  CarriedReads[Read] = Result;
  return Result;
}

llvm::SmallVector<const Expr *, 2>
CarriedState::valuesReaching(const VarDecl *Var, const Expr *Use) {
  llvm::SmallVector<const Expr *, 2> Values;
  const FunctionFlow *Flow = History.flowAt(Use);
  if (!Flow || !Flow->valid())
    return Values;
  for (const Definition &Def : Flow->reachingDefinitions(Var, Use))
    for (const Expr *Value : Def.Values)
      if (Value != Def.At)
        Values.push_back(Value);
  return Values;
}

const VarDecl *CarriedState::followedLocal(const Expr *E) {
  const ValueDecl *D = referencedDecl(E);
  if (const auto *Binding = dyn_cast_or_null<BindingDecl>(D))
    D = Binding->getDecomposedDecl();
  const auto *Var = dyn_cast_or_null<VarDecl>(D);
  if (!Var || Var == Target || !Var->hasLocalStorage() ||
      Var->getType()->isScalarType())
    return nullptr;
  return Var;
}

bool CarriedState::dependsOnCarried(const Expr *Value) {
  return dependsOnCarried(Value, 0);
}

bool CarriedState::dependsOnCarried(const Expr *Value, unsigned Depth) {
  if (!Value || Depth > MaxDepth)
    return false;
  const Expr *E = stripWrappers(Value);
  auto Known = Depends.find(E);
  if (Known != Depends.end())
    return Known->second;
  Depends[E] = false; // a cycle through locals adds nothing
  bool Result = false;
  if (cutsHistory(E, History.context())) {
    Result = false;
  } else if (referencedDecl(E) == Target) {
    Result = readsCarriedHistory(E);
  } else if (const VarDecl *Local = followedLocal(E)) {
    for (const Expr *Assigned : valuesReaching(Local, E))
      if ((Result = dependsOnCarried(Assigned, Depth + 1)))
        break;
  } else if (!isa<LambdaExpr>(E)) {
    for (const Stmt *Child : E->children())
      if (const auto *ChildExpr = dyn_cast_or_null<Expr>(Child))
        if ((Result = dependsOnCarried(ChildExpr, Depth)))
          break;
  }
  Depends[E] = Result;
  return Result;
}

WriteParts CarriedState::split(const Expr *Value) {
  WriteParts Parts;
  Split.clear();
  split(Value, /*InForward=*/false, 0, Parts);
  return Parts;
}

void CarriedState::split(const Expr *E, bool InForward, unsigned Depth,
                         WriteParts &Out) {
  if (!E || Depth > MaxDepth)
    return;
  E = stripWrappers(E);
  // Each part once, also where a local reached around the loop leads back
  // to the value itself.
  if (!Split.insert(E).second)
    return;
  if (cutsHistory(E, History.context()))
    return;
  if (!dependsOnCarried(E, Depth)) {
    if (holdsTensors(E->getType()) && History.requiresGrad(E))
      Out.Carrying.push_back(E);
    return;
  }
  if (referencedDecl(E) == Target) {
    Out.CarriedReads.push_back(E);
    if (InForward)
      Out.FedBack.push_back(E);
    return;
  }
  if (const VarDecl *Local = followedLocal(E)) {
    for (const Expr *Assigned : valuesReaching(Local, E))
      if (dependsOnCarried(Assigned, Depth + 1))
        split(Assigned, InForward, Depth + 1, Out);
    return;
  }
  bool Forward = InForward || isForwardCall(E, History.options().names());
  for (const Stmt *Child : E->children())
    if (const auto *ChildExpr = dyn_cast_or_null<Expr>(Child))
      split(ChildExpr, Forward, Depth, Out);
}

namespace {
class LoopVaryingForward : public StmtWalk {
public:
  LoopVaryingForward(const Stmt *Loop, const SourceManager &SM,
                     const NameGuesses &Guesses)
      : Loop(Loop), SM(SM), Guesses(Guesses) {}
  bool Found = false;
  bool visit(Stmt *S) override {
    const auto *Call = dyn_cast<CallExpr>(S);
    if (!Call || !isForwardCall(Call, Guesses))
      return true;
    if (const Expr *Object = forwardObjectOf(Call))
      Found |= namesLoopVariable(Object);
    return !Found;
  }

private:
  static const Expr *forwardObjectOf(const CallExpr *Call) {
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call))
      return Op->getArg(0);
    if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call))
      return Member->getImplicitObjectArgument();
    return nullptr;
  }
  /// Whether \p E names a variable declared in the loop (its counter, its
  /// range variable, a local of its body).
  bool namesLoopVariable(const Expr *E) {
    class Names : public StmtWalk {
    public:
      llvm::SmallVector<const VarDecl *, 4> Vars;
      bool visit(Stmt *S) override {
        const auto *Ref = dyn_cast<DeclRefExpr>(S);
        if (const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr)
          Vars.push_back(Var);
        return true;
      }
    } Found;
    Found.walk(E);
    return llvm::any_of(Found.Vars, [&](const VarDecl *Var) {
      SourceLocation Loc = Var->getLocation();
      return SM.isBeforeInTranslationUnit(Loop->getBeginLoc(), Loc) &&
             SM.isBeforeInTranslationUnit(Loc, Loop->getEndLoc());
    });
  }
  const Stmt *Loop;
  const SourceManager &SM;
  const NameGuesses &Guesses;
};
} // namespace

bool CarriedState::stepsThroughLayers(const Expr *Value) {
  if (!Life.LoopStmt || !Value)
    return false;
  LoopVaryingForward Finder(Life.LoopStmt, History.context().getSourceManager(),
                            History.options().names());
  Finder.walk(Value);
  return Finder.Found;
}

} // namespace torch_tidy::analysis
