//===--- ModeRestore.cpp - Is a module set back to training before it trains?

#include "checks/analysis/ModeRestore.h"

#include "checks/analysis/BackwardPasses.h"
#include "checks/analysis/ExprUtils.h"
#include "checks/analysis/LoopScope.h"
#include "checks/analysis/Optimizers.h"
#include "checks/analysis/TorchTypes.h"
#include "checks/analysis/TrainingSteps.h"
#include "checks/analysis/Walk.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

#include "llvm/ADT/DenseSet.h"
#include <optional>

using namespace clang;

namespace torch_tidy::analysis {

namespace {
/// The calls a body makes, in order, outside the lambdas it defines.
class CallsIn : public StmtWalk {
public:
  llvm::SmallVector<const CallExpr *, 8> Calls;
  bool enter(Stmt *S) override { return !isa<LambdaExpr>(S); }
  bool visit(Stmt *S) override {
    if (const auto *Call = dyn_cast<CallExpr>(S))
      Calls.push_back(Call);
    return true;
  }
};
} // namespace

void ModeEffects::collect(const CallExpr *Call, const FunctionDecl *In,
                          unsigned Depth,
                          llvm::SmallVectorImpl<ModeEffect> &Out) {
  if (ModuleMode Mode = modeSetBy(Call, Ctx); Mode != ModuleMode::None) {
    ModeFlag Flag =
        Mode == ModuleMode::Train ? modeFlagOf(Call, In) : ModeFlag();
    Out.push_back({Mode, receiverPath(Call), Flag});
    return;
  }
  const Stmt *Body = Depth < 3 ? userBodyCalled(Call, Ctx) : nullptr;
  if (!Body)
    return;
  // The changes of a body, in its own terms, are read once per body.
  auto [It, New] = BodyCache.try_emplace(Body);
  if (New) {
    llvm::SmallVector<ModeEffect, 2> InCallee;
    const FunctionDecl *Callee = Call->getDirectCallee()->getDefinition();
    CallsIn Inner;
    Inner.walk(Body);
    for (const CallExpr *C : Inner.Calls)
      collect(C, Callee, Depth + 1, InCallee);
    BodyCache[Body] = std::move(InCallee); // (a recursive call saw it empty)
  }
  for (const ModeEffect &E : BodyCache.find(Body)->second) {
    // A flag of the callee: the mode this call passes for it, or a flag of
    // the caller's own that it passes on; otherwise train(flag) as written.
    ModuleMode Mode = E.Mode;
    ModeFlag Flag;
    if (E.Flag) {
      if (ModuleMode AtCall = modeAtCall(E.Flag, Call, Ctx);
          AtCall != ModuleMode::None)
        Mode = AtCall;
      else
        Flag = modeFlagPassedOn(E.Flag, Call, In);
    }
    Out.push_back({Mode, asCallerNames(E.Module, Call), Flag});
  }
}

llvm::ArrayRef<ModeEffect> ModeEffects::of(const Stmt *S) {
  auto [It, New] = Cache.try_emplace(S);
  if (New)
    if (const auto *Call = dyn_cast_or_null<CallExpr>(S))
      collect(Call, /*In=*/nullptr, 0, It->second);
  return Cache.find(S)->second;
}

/// The mode \p E leaves \p Module in, if it covers it: a change of the
/// module or of an object that holds it, or a train() of a module that is
/// not known (it may be any).
static ModuleMode coveringMode(const ModeEffect &E, const ObjectPath &Module) {
  bool Covers = ownsOrIs(E.Module, Module) || mayAlias(E.Module, Module);
  if (E.Mode == ModuleMode::Train && (Covers || !E.Module.Known))
    return ModuleMode::Train;
  if (E.Mode == ModuleMode::Eval && Covers)
    return ModuleMode::Eval;
  return ModuleMode::None;
}

ModuleMode ModeEffects::leaves(const Stmt *Call, const ObjectPath &Module) {
  ModuleMode Left = ModuleMode::None;
  for (const ModeEffect &E : of(Call))
    if (ModuleMode Mode = coveringMode(E, Module); Mode != ModuleMode::None)
      Left = Mode;
  return Left;
}

ModuleMode ModeEffects::setsFirst(const Stmt *Call, const ObjectPath &Module) {
  for (const ModeEffect &E : of(Call))
    if (ModuleMode Mode = coveringMode(E, Module); Mode != ModuleMode::None)
      return Mode;
  return ModuleMode::None;
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

static llvm::SmallVector<const Stmt *, 4>
trainingStepsOf(const ObjectPath &Module, const Stmt *Loop, ASTContext &Ctx,
                unsigned Depth);

/// Whether the call \p Call, a function of the unit that trains, handed
/// \p Module only as its argument for a parameter, trains it: its body in
/// view, that parameter's module has a training step there of its own (an
/// optimizer that may hold it, or a training call handed it in turn). A
/// module handed to a training round as a fixed opponent is not trained by
/// it. True when the body is not in view or the call nests too deep.
static bool trainsHanded(const CallExpr *Call, const ObjectPath &Module,
                         ASTContext &Ctx, unsigned Depth) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  const FunctionDecl *Def = nullptr;
  if (!Callee || !Callee->hasBody(Def) || Depth >= 2 ||
      isa<CXXOperatorCallExpr>(Call))
    return true;
  for (unsigned I = 0; I < Call->getNumArgs() && I < Def->getNumParams(); ++I) {
    if (!handsModule(Call->getArg(I), Module))
      continue;
    ObjectPath Param;
    Param.Decls.push_back(Def->getParamDecl(I));
    Param.Known = true;
    if (!trainingStepsOf(Param, Def->getBody(), Ctx, Depth + 1).empty())
      return true;
  }
  return false;
}

llvm::SmallVector<const Stmt *, 4>
trainingStepsOf(const ObjectPath &Module, const Stmt *Loop, ASTContext &Ctx) {
  return trainingStepsOf(Module, Loop, Ctx, 0);
}

static llvm::SmallVector<const Stmt *, 4>
trainingStepsOf(const ObjectPath &Module, const Stmt *Loop, ASTContext &Ctx,
                unsigned Depth) {
  llvm::SmallVector<const Stmt *, 4> Steps;
  if (!Loop || !Module.Known || Module.Decls.empty())
    return Steps;
  CallsIn Calls;
  Calls.walk(Loop);
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
    bool HandedAsArgument = llvm::any_of(Call->arguments(), [&](const Expr *Arg) {
      return handsModule(Arg, Module);
    });
    bool Handed = HandedAsArgument && trainsHanded(Call, Module, Ctx, Depth);
    if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call))
      if (const Expr *Object = Member->getImplicitObjectArgument())
        Handed |= handsModule(Object, Module);
    const auto *MD = dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee());
    if (!Handed && !HandedAsArgument && MD && MD->getParent()->isLambda() &&
        Module.Decls.front())
      Handed = mentions(userBodyCalled(Call, Ctx), Module.Decls.front());
    if (Handed)
      Steps.push_back(Call);
  }
  return Steps;
}

const FunctionFlow &ModeEffects::flowOf(const FunctionDecl *Function) {
  auto &Flow = Flows[Function];
  if (!Flow)
    Flow = std::make_unique<FunctionFlow>(Function, Ctx);
  return *Flow;
}

/// Whether \p Step is a call of a method of the same object (on `this`),
/// its body in view, that changes the mode of \p Module, a member of that
/// object, before each training step of the module it runs, on every path
/// from its entry: the mode it is entered in reaches none of them.
static bool setsModeBeforeItsSteps(const Stmt *Step, const ObjectPath &Module,
                                   ModeEffects &Effects) {
  const auto *Call = dyn_cast<CXXMemberCallExpr>(Step);
  // A path rooted at `this`: `this.policy`.
  if (!Call || !Module.Known || Module.Decls.size() < 2 ||
      Module.Decls.front() != nullptr)
    return false;
  const Expr *Object = Call->getImplicitObjectArgument();
  const FunctionDecl *Def = nullptr;
  if (!Object || !isa<CXXThisExpr>(Object->IgnoreParenImpCasts()) ||
      !Call->getMethodDecl() || !Call->getMethodDecl()->hasBody(Def))
    return false;
  ASTContext &Ctx = Effects.context();
  llvm::SmallVector<const Stmt *, 4> Inner =
      trainingStepsOf(Module, Def->getBody(), Ctx);
  if (Inner.empty())
    return false;
  const FunctionFlow &Flow = Effects.flowOf(Def);
  if (!Flow.valid())
    return false;
  return llvm::none_of(Inner, [&](const Stmt *InnerStep) {
    return Flow
        .nearestBefore(InnerStep,
                       [&](const Stmt *S) {
                         return S != InnerStep && isa<CallExpr>(S) &&
                                Effects.leaves(S, Module) != ModuleMode::None;
                       })
        .ReachesEntry;
  });
}

llvm::SmallVector<const Stmt *, 2>
stepsReachedInEvalMode(const Stmt *Eval, const ObjectPath &Module,
                       llvm::ArrayRef<const Stmt *> Steps,
                       const FunctionFlow &Flow, ModeEffects &Effects) {
  llvm::SmallVector<const Stmt *, 2> Reached;
  if (!Flow.valid())
    return Reached;
  for (const Stmt *Step : Steps) {
    // A step that sets the module training, first thing or for good.
    if (Effects.setsFirst(Step, Module) == ModuleMode::Train ||
        Effects.leaves(Step, Module) == ModuleMode::Train ||
        setsModeBeforeItsSteps(Step, Module, Effects))
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
/// A comparison `A op B` as the loop counter and bound it relates: the
/// decls on either side (after parentheses and casts), and whether one
/// side adds a constant 1 to the decl it names.
struct Comparison {
  BinaryOperatorKind Op = BO_Comma;
  const ValueDecl *Left = nullptr, *Right = nullptr;
  bool LeftPlusOne = false, RightMinusOne = false;
};

std::optional<Comparison> comparisonOf(const Expr *E) {
  const auto *B = dyn_cast_or_null<BinaryOperator>(E ? stripWrappers(E) : nullptr);
  if (!B || !B->isComparisonOp())
    return std::nullopt;
  Comparison C;
  C.Op = B->getOpcode();
  auto Side = [](const Expr *S, BinaryOperatorKind Adjust, bool &Adjusted) {
    S = stripWrappers(S);
    if (const auto *Arith = dyn_cast<BinaryOperator>(S);
        Arith && Arith->getOpcode() == Adjust) {
      const auto *One = dyn_cast<IntegerLiteral>(stripWrappers(Arith->getRHS()));
      if (!One || One->getValue() != 1)
        return static_cast<const ValueDecl *>(nullptr);
      Adjusted = true;
      S = stripWrappers(Arith->getLHS());
    }
    return referencedDecl(S);
  };
  C.Left = Side(B->getLHS(), BO_Add, C.LeftPlusOne);
  C.Right = Side(B->getRHS(), BO_Sub, C.RightMinusOne);
  if (!C.Left || !C.Right || C.Left == C.Right)
    return std::nullopt;
  return C;
}

/// Whether \p Loop counts \p Counter up by one: `++i`, `i++`, `i += 1`.
bool countsUp(const ForStmt *Loop, const ValueDecl *Counter) {
  const Expr *Inc = Loop->getInc() ? stripWrappers(Loop->getInc()) : nullptr;
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(Inc))
    return U->isIncrementOp() && referencedDecl(U->getSubExpr()) == Counter;
  if (const auto *B = dyn_cast_or_null<CompoundAssignOperator>(Inc)) {
    const auto *One = dyn_cast<IntegerLiteral>(stripWrappers(B->getRHS()));
    return B->getOpcode() == BO_AddAssign && One && One->getValue() == 1 &&
           referencedDecl(B->getLHS()) == Counter;
  }
  return false;
}

/// Whether \p Guard is false on the last iteration of a loop that runs
/// while \p Loop holds, and only then.
bool failsOnlyOnLastIteration(const Comparison &Guard, const Comparison &Loop) {
  // The counter first, the bound second, in the loop's condition.
  if (Loop.LeftPlusOne || Loop.RightMinusOne ||
      (Loop.Op != BO_LT && Loop.Op != BO_LE))
    return false;
  if (Guard.Left != Loop.Left || Guard.Right != Loop.Right)
    return false;
  bool Adjusted = Guard.LeftPlusOne || Guard.RightMinusOne;
  if (Guard.LeftPlusOne && Guard.RightMinusOne)
    return false;
  if (Loop.Op == BO_LE) // the last iteration has counter == bound
    return !Adjusted && (Guard.Op == BO_NE || Guard.Op == BO_LT);
  // `<`: the last has counter + 1 == bound
  return Adjusted && (Guard.Op == BO_NE || Guard.Op == BO_LT);
}

/// The if statements of \p Body outside nested loops and lambdas.
class GuardedIfs : public StmtWalk {
public:
  llvm::SmallVector<const IfStmt *, 4> Found;
  bool enter(Stmt *S) override {
    return !isa<LambdaExpr, ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S);
  }
  bool visit(Stmt *S) override {
    if (const auto *If = dyn_cast<IfStmt>(S))
      Found.push_back(If);
    return true;
  }
};
} // namespace

bool restoredUnlessLastIteration(const Stmt *Eval, const ObjectPath &Module,
                                 const Stmt *Loop, ModeEffects &Effects,
                                 ASTContext &Ctx) {
  const auto *For = dyn_cast_or_null<ForStmt>(Loop);
  if (!For || !For->getBody())
    return false;
  std::optional<Comparison> Bound = comparisonOf(For->getCond());
  if (!Bound || !countsUp(For, Bound->Left))
    return false;
  const SourceManager &SM = Ctx.getSourceManager();
  GuardedIfs Ifs;
  Ifs.walk(For->getBody());
  for (const IfStmt *If : Ifs.Found) {
    if (If->getElse() || If->getInit() || If->getConditionVariable() ||
        !SM.isBeforeInTranslationUnit(Eval->getEndLoc(), If->getBeginLoc()))
      continue;
    std::optional<Comparison> Guard = comparisonOf(If->getCond());
    if (!Guard || !failsOnlyOnLastIteration(*Guard, *Bound))
      continue;
    CallsIn Calls;
    Calls.walk(If->getThen());
    for (const CallExpr *Call : Calls.Calls)
      if (Effects.leaves(Call, Module) == ModuleMode::Train)
        return true;
  }
  return false;
}

namespace {
/// What the `requires_grad_(...)` / `set_requires_grad(...)` calls of a
/// statement set on what they are given.
struct RequiresGradSet {
  /// The value every call sets: False, True, Unknown when calls disagree or
  /// one's value is not a constant; None when there is no such call.
  OptionalBool Every = OptionalBool::None;
  /// Some call sets a constant `false`, written out.
  bool AnyFalse = false;
};

RequiresGradSet requiresGradSetIn(const Stmt *S, const ASTContext &Ctx) {
  class Sets : public StmtWalk {
  public:
    explicit Sets(const ASTContext &Ctx) : Ctx(Ctx) {}
    RequiresGradSet Result;
    bool visit(Stmt *S) override {
      const auto *Call = dyn_cast<CXXMemberCallExpr>(S);
      const CXXMethodDecl *MD = Call ? Call->getMethodDecl() : nullptr;
      if (!MD || !MD->getIdentifier() ||
          (MD->getName() != "requires_grad_" &&
           MD->getName() != "set_requires_grad"))
        return true;
      OptionalBool Set =
          Call->getNumArgs() > 0 && !isa<CXXDefaultArgExpr>(Call->getArg(0))
              ? evaluateOptionalBool(Call->getArg(0), Ctx)
              : OptionalBool::True;
      if (Set != OptionalBool::True && Set != OptionalBool::False)
        Set = OptionalBool::Unknown;
      Result.AnyFalse |= Set == OptionalBool::False;
      Result.Every = Result.Every == OptionalBool::None || Result.Every == Set
                         ? Set
                         : OptionalBool::Unknown;
      return true;
    }
    const ASTContext &Ctx;
  } Walk(Ctx);
  Walk.walk(S);
  return Walk.Result;
}

/// The object whose parameters a range-for loop runs over
/// (`for (auto &p : net->parameters())`, `named_parameters()`); nullopt for
/// any other loop.
std::optional<ObjectPath> parametersLoopedOver(const Stmt *S) {
  const auto *For = dyn_cast<CXXForRangeStmt>(S);
  const auto *Range = dyn_cast_or_null<CXXMemberCallExpr>(
      For && For->getRangeInit() ? stripWrappers(For->getRangeInit())
                                 : nullptr);
  const CXXMethodDecl *MD = Range ? Range->getMethodDecl() : nullptr;
  if (!MD || !MD->getIdentifier() ||
      (MD->getName() != "parameters" && MD->getName() != "named_parameters"))
    return std::nullopt;
  return objectPath(Range->getImplicitObjectArgument());
}

/// The range-for loops over a module's parameters in a body.
class ParameterLoops : public StmtWalk {
public:
  ParameterLoops(const ObjectPath &Module, const ASTContext &Ctx)
      : Module(Module), Ctx(Ctx) {}
  bool Found = false;
  bool visit(Stmt *S) override {
    std::optional<ObjectPath> Of = parametersLoopedOver(S);
    if (!Of || (!overlap(*Of, Module) && !mayAlias(*Of, Module)))
      return true;
    Found |=
        requiresGradSetIn(cast<CXXForRangeStmt>(S)->getBody(), Ctx).AnyFalse;
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
  Loops.walk(Body);
  return Loops.Found;
}

namespace {
/// The branch of \p If that always runs, where its condition is a
/// constant: true for the `then` branch, false for the `else` one.
std::optional<bool> constantCondition(const IfStmt *If, const ASTContext &Ctx) {
  bool Value = false;
  if (If->isConsteval() || !If->getCond() ||
      If->getCond()->isValueDependent() ||
      !If->getCond()->EvaluateAsBooleanCondition(Value, Ctx))
    return std::nullopt;
  return Value;
}

/// The range-for loops that set requires_grad on the parameters of
/// \p Module: to false, over the module or an owner of it; to anything
/// else, over the module, a part, an owner or an alias of it. In the order
/// they appear, with what each sets, leaving out those in the branch of an
/// `if` that its constant condition never takes.
class RequiresGradLoops : public StmtWalk {
public:
  RequiresGradLoops(const ObjectPath &Module, const ASTContext &Ctx)
      : Module(Module), Ctx(Ctx) {}
  struct Loop {
    const CXXForRangeStmt *For;
    OptionalBool Sets;
  };
  llvm::SmallVector<Loop, 4> Loops;

  bool enter(Stmt *S) override { return !Dead.contains(S); }
  bool visit(Stmt *S) override {
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      if (std::optional<bool> Taken = constantCondition(If, Ctx))
        if (const Stmt *Skipped = *Taken ? If->getElse() : If->getThen())
          Dead.insert(Skipped);
      return true;
    }
    std::optional<ObjectPath> Of = parametersLoopedOver(S);
    if (!Of)
      return true;
    const auto *For = cast<CXXForRangeStmt>(S);
    OptionalBool Sets = requiresGradSetIn(For->getBody(), Ctx).Every;
    if (Sets == OptionalBool::None)
      return true;
    // A part of the module frozen leaves the rest recording; set back,
    // any part of it records again.
    if (Sets == OptionalBool::False
            ? ownsOrIs(*Of, Module)
            : overlap(*Of, Module) || mayAlias(*Of, Module))
      Loops.push_back({For, Sets});
    return true;
  }

private:
  const ObjectPath &Module;
  const ASTContext &Ctx;
  llvm::DenseSet<const Stmt *> Dead;
};

/// Whether \p S, which comes before \p At, runs whenever \p At does: a
/// statement of a block around \p At, or of the branch of an `if` (in such
/// a block) that its constant condition always takes.
bool runsBefore(const Stmt *S, const Stmt *At, ASTContext &Ctx) {
  DynTypedNode Node = DynTypedNode::create(*S);
  for (unsigned Depth = 0; Depth < 16; ++Depth) {
    auto Parents = Ctx.getParents(Node);
    if (Parents.empty())
      return false;
    const DynTypedNode &Parent = Parents[0];
    if (const auto *Block = Parent.get<CompoundStmt>()) {
      if (contains(Block, At))
        return true;
    } else if (const auto *If = Parent.get<IfStmt>()) {
      std::optional<bool> Taken = constantCondition(If, Ctx);
      if (!Taken || Node.get<Stmt>() != (*Taken ? If->getThen() : If->getElse()))
        return false;
    } else {
      return false;
    }
    Node = Parent;
  }
  return false;
}
} // namespace

bool parametersFrozenAt(const Stmt *At, const ObjectPath &Module,
                        ASTContext &Ctx) {
  if (!At || !Module.Known)
    return false;
  const Stmt *Body = enclosingFunctionBody(At, Ctx);
  if (!Body)
    return false;
  RequiresGradLoops Walk(Module, Ctx);
  Walk.walk(Body);
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation AtLoc = SM.getExpansionLoc(At->getBeginLoc());
  bool Frozen = false;
  for (const auto &L : Walk.Loops) {
    if (!SM.isBeforeInTranslationUnit(SM.getExpansionLoc(L.For->getBeginLoc()),
                                      AtLoc))
      break;
    if (L.Sets == OptionalBool::False)
      Frozen |= runsBefore(L.For, At, Ctx);
    else
      Frozen = false;
  }
  return Frozen;
}

} // namespace torch_tidy::analysis
