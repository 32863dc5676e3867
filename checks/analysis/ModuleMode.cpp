//===--- ModuleMode.cpp - Is a module in evaluation mode here? ------------===//

#include "checks/analysis/ModuleMode.h"

#include "checks/analysis/BackwardPasses.h"
#include "checks/analysis/ExprUtils.h"
#include "checks/analysis/LoopScope.h"
#include "checks/analysis/TorchTypes.h"
#include "checks/analysis/Walk.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace torch_tidy::analysis {

ModuleMode modeSetBy(const Stmt *S, const ASTContext &Ctx) {
  const auto *Call = dyn_cast_or_null<CXXMemberCallExpr>(S);
  const CXXMethodDecl *MD = Call ? Call->getMethodDecl() : nullptr;
  if (!MD || !MD->getIdentifier() || !isModuleClass(MD->getParent()))
    return ModuleMode::None;
  if (MD->getName() == "eval")
    return ModuleMode::Eval;
  if (MD->getName() != "train")
    return ModuleMode::None;
  if (Call->getNumArgs() > 0 && !isa<CXXDefaultArgExpr>(Call->getArg(0)) &&
      evaluateOptionalBool(Call->getArg(0), Ctx) == OptionalBool::False)
    return ModuleMode::Eval;
  return ModuleMode::Train;
}

const ValueDecl *moduleOf(const Expr *Object) {
  for (unsigned Depth = 0; Depth < 4 && Object; ++Depth) {
    Object = stripWrappers(Object);
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Object);
        Op && (Op->getOperator() == OO_Arrow || Op->getOperator() == OO_Star)) {
      Object = Op->getArg(0);
      continue;
    }
    if (const auto *Call = dyn_cast<CXXMemberCallExpr>(Object);
        Call && Call->getMethodDecl() &&
        Call->getMethodDecl()->getName() == "ptr") {
      Object = Call->getImplicitObjectArgument();
      continue;
    }
    return referencedDecl(Object);
  }
  return nullptr;
}

const Expr *forwardObject(const Expr *Forward) {
  Forward = stripWrappers(Forward);
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Forward))
    return Op->getArg(0);
  if (const auto *Call = dyn_cast<CXXMemberCallExpr>(Forward))
    return Call->getImplicitObjectArgument();
  return nullptr;
}

/// \p E without the `!`s around it, counting them in \p Negated; nullptr
/// when another unary operator is found first.
static const Expr *withoutNots(const Expr *E, bool &Negated) {
  Negated = false;
  E = stripWrappers(E);
  while (const auto *Not = dyn_cast<UnaryOperator>(E)) {
    if (Not->getOpcode() != UO_LNot)
      return nullptr;
    Negated = !Negated;
    E = stripWrappers(Not->getSubExpr());
  }
  return E;
}

/// \p E as a parameter of \p Def, negated or not; empty when it is not one.
static ModeFlag parameterFlag(const Expr *E, const FunctionDecl *Def) {
  bool Negated = false;
  E = E ? withoutNots(E, Negated) : nullptr;
  const auto *Param = dyn_cast_or_null<ParmVarDecl>(E ? referencedDecl(E) : nullptr);
  if (!Param || !Def || Param->getDeclContext() != Def)
    return {};
  return {Param, Negated};
}

ModeFlag modeFlagOf(const CallExpr *Set, const FunctionDecl *Def) {
  if (!Set || Set->getNumArgs() == 0 || isa<CXXDefaultArgExpr>(Set->getArg(0)))
    return {};
  return parameterFlag(Set->getArg(0), Def);
}

ModuleMode modeAtCall(const ModeFlag &Flag, const CallExpr *Call,
                      const ASTContext &Ctx) {
  const Expr *Arg = Flag ? argumentFor(Call, Flag.Param->getFunctionScopeIndex(),
                                       /*Defaults=*/true)
                         : nullptr;
  if (!Arg)
    return ModuleMode::None;
  OptionalBool Value = evaluateOptionalBool(Arg, Ctx);
  if (Value == OptionalBool::Unknown)
    return ModuleMode::None;
  return (Value == OptionalBool::True) != Flag.Negated ? ModuleMode::Train
                                                        : ModuleMode::Eval;
}

ModeFlag modeFlagPassedOn(const ModeFlag &Flag, const CallExpr *Call,
                          const FunctionDecl *Caller) {
  const Expr *Arg = Flag ? argumentFor(Call, Flag.Param->getFunctionScopeIndex(),
                                       /*Defaults=*/true)
                         : nullptr;
  ModeFlag Passed = parameterFlag(Arg, Caller);
  if (Passed)
    Passed.Negated = Passed.Negated != Flag.Negated;
  return Passed;
}

namespace {
/// The mode changes that the body of a called function makes, each with
/// the object it is made on. A `train(flag)` whose flag is a parameter of
/// the function (or its negation) takes its value from the call:
/// `set_eval(true)` running `actor->train(!eval)` puts `actor` in
/// evaluation mode.
class CalleeModes : public StmtWalk {
public:
  CalleeModes(const CallExpr *Call, const FunctionDecl *Def,
              const ASTContext &Ctx)
      : Call(Call), Def(Def), Ctx(Ctx) {}
  llvm::SmallVector<std::pair<ModuleMode, const Expr *>, 4> Changes;
  bool visit(Stmt *S) override {
    const auto *Set = dyn_cast<CXXMemberCallExpr>(S);
    if (!Set)
      return true;
    ModuleMode Mode = modeSetBy(Set, Ctx);
    if (Mode == ModuleMode::None)
      return true;
    if (Mode == ModuleMode::Train)
      if (ModuleMode AtCall = modeAtCall(modeFlagOf(Set, Def), Call, Ctx);
          AtCall != ModuleMode::None)
        Mode = AtCall;
    Changes.push_back({Mode, Set->getImplicitObjectArgument()});
    return true;
  }

private:
  const CallExpr *Call;
  const FunctionDecl *Def;
  const ASTContext &Ctx;
};
} // namespace

/// The module that \p Object, in the body of \p Def, names at \p Call, as
/// the caller names it: a member of the object the function is called on,
/// or the module passed for a parameter.
static ModeChange asCallerNames(ModuleMode Mode, const Expr *Object,
                                const CallExpr *Call, const FunctionDecl *Def) {
  const ValueDecl *Module = moduleOf(Object);
  if (const auto *Param = dyn_cast_or_null<ParmVarDecl>(Module)) {
    if (const Expr *Arg = argumentFor(Call, Param->getFunctionScopeIndex(),
                                      /*Defaults=*/true))
      return {Mode, moduleOf(Arg), true};
    return {Mode, nullptr, false};
  }
  if (isa_and_nonnull<FieldDecl>(Module)) {
    const auto *Member = dyn_cast<CXXMemberCallExpr>(Call);
    const Expr *Base = Member ? Member->getImplicitObjectArgument() : nullptr;
    bool OnThis = Base && isa<CXXThisExpr>(Base->IgnoreParenImpCasts());
    return {Mode, Module, OnThis};
  }
  return {Mode, Module, Module != nullptr};
}

ModeChange modeChangeBy(const Stmt *S, const ASTContext &Ctx,
                        const ValueDecl *For) {
  if (ModuleMode Mode = modeSetBy(S, Ctx); Mode != ModuleMode::None)
    return {Mode, moduleOf(cast<CXXMemberCallExpr>(S)->getImplicitObjectArgument()),
            true};
  // A helper of the user's, with its body in the unit, that sets the mode:
  // `_model_eval()` doing `model_->eval()`, `set_eval(net)`.
  const auto *Call = dyn_cast_or_null<CallExpr>(S);
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  const FunctionDecl *Def = Callee ? Callee->getDefinition() : nullptr;
  if (!Def || !Def->hasBody() ||
      Ctx.getSourceManager().isInSystemHeader(Def->getLocation()))
    return {};
  CalleeModes Modes(Call, Def, Ctx);
  Modes.walk(Def->getBody());
  if (Modes.Changes.empty())
    return {};
  llvm::SmallVector<ModeChange, 4> Changes;
  for (const auto &[Mode, Object] : Modes.Changes)
    Changes.push_back(asCallerNames(Mode, Object, Call, Def));
  // What it does to \p For: the changes made on it, or else one made on a
  // module the caller cannot name.
  if (For) {
    const ModeChange *Unnamed = nullptr, *Found = nullptr;
    for (const ModeChange &C : Changes) {
      if (C.ModuleKnown && C.Module == For) {
        // One that also trains leaves the module training.
        if (!Found || C.Mode == ModuleMode::Train)
          Found = &C;
      } else if (!C.ModuleKnown && !Unnamed) {
        Unnamed = &C;
      }
    }
    if (Found)
      return *Found;
    if (Unnamed)
      return *Unnamed;
  }
  // One that also trains leaves the module training (validate-then-resume).
  for (const ModeChange &C : Changes)
    if (C.Mode == ModuleMode::Train)
      return C;
  return Changes.front();
}

/// The eval() that sets \p Model to evaluation mode on every path before
/// \p At; with \p AtEntry, the mode on entry to the function for the paths
/// that reach it with no change (null: not known, so not evaluation).
static const Stmt *
evalOnEveryPath(const Stmt *At, const ValueDecl *Model, const FunctionFlow *Flow,
                const ASTContext &Ctx,
                llvm::function_ref<const Stmt *()> AtEntry = nullptr) {
  if (!Flow || !Flow->valid())
    return nullptr;
  // A change whose module is not known counts only where the forward's
  // module is not known either.
  auto Applies = [&](const ModeChange &C) {
    return C.Mode != ModuleMode::None &&
           (!Model || (C.ModuleKnown && C.Module == Model));
  };
  // A helper's body is read once per statement, not again for the verdict.
  llvm::DenseMap<const Stmt *, ModeChange> Changes;
  auto ChangeBy = [&](const Stmt *S) -> ModeChange {
    auto [It, New] = Changes.try_emplace(S);
    if (New)
      It->second = modeChangeBy(S, Ctx, Model);
    return It->second;
  };
  auto Nearest = Flow->nearestBefore(
      At, [&](const Stmt *S) { return Applies(ChangeBy(S)); });
  if (!llvm::all_of(Nearest.Found, [&](const Stmt *S) {
        return ChangeBy(S).Mode == ModuleMode::Eval;
      }))
    return nullptr;
  const Stmt *Entry = nullptr;
  if (Nearest.ReachesEntry && !(AtEntry && (Entry = AtEntry())))
    return nullptr;
  return Nearest.Found.empty() ? Entry : Nearest.Found.front();
}

namespace {
/// The mode calls on one module object (`m->eval()`, `m.train()`) in the
/// code walked: the first that sets evaluation mode, and whether any sets
/// training mode.
class ModeCalls : public StmtWalk {
public:
  ModeCalls(const ValueDecl *Module, const ASTContext &Ctx)
      : Module(Module), Ctx(Ctx) {}
  const Stmt *FirstEval = nullptr;
  bool Trains = false;
  bool visit(Stmt *S) override {
    const auto *Call = dyn_cast<CXXMemberCallExpr>(S);
    if (!Call)
      return true;
    ModuleMode Mode = modeSetBy(Call, Ctx);
    if (Mode == ModuleMode::None ||
        moduleOf(Call->getImplicitObjectArgument()) != Module)
      return true;
    if (Mode == ModuleMode::Train)
      Trains = true;
    else if (!FirstEval)
      FirstEval = Call;
    return true;
  }

protected:
  const ValueDecl *Module;
  const ASTContext &Ctx;
};

/// The eval() a function of the unit leaves the module it returns in: every
/// value it returns is a local module of its own that its body puts in
/// evaluation mode and never back (a loader: `auto m = torch::jit::load(p);
/// m.eval(); return m;`). Null for anything else.
const Stmt *evalOfReturnedModule(const Expr *E, const ASTContext &Ctx) {
  const auto *Call = dyn_cast_or_null<CallExpr>(stripWrappers(E));
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  const FunctionDecl *Def = Callee ? Callee->getDefinition() : nullptr;
  if (!Def || !Def->hasBody() || isLibraryFunction(Def))
    return nullptr;
  const Stmt *Eval = nullptr;
  for (const Expr *Value : returnedValues(Def->getBody())) {
    const auto *Var = dyn_cast_or_null<VarDecl>(moduleOf(Value));
    if (!Var || isa<ParmVarDecl>(Var) || !Var->hasLocalStorage() ||
        Var->getType()->isReferenceType())
      return nullptr;
    ModeCalls Found(Var, Ctx);
    Found.walk(Def->getBody());
    if (!Found.FirstEval || Found.Trains)
      return nullptr;
    Eval = Eval ? Eval : Found.FirstEval;
  }
  return Eval;
}

/// The mode changes of one member module across its class's methods, and
/// the loaders it is assigned from.
class MemberModes : public ModeCalls {
public:
  MemberModes(const FieldDecl *Member, const ASTContext &Ctx)
      : ModeCalls(Member, Ctx) {}
  bool visit(Stmt *S) override {
    // `member = load(path);` with a loader that leaves what it returns in
    // evaluation mode.
    if (const auto *Assign = dyn_cast<CXXOperatorCallExpr>(S);
        Assign && Assign->getOperator() == OO_Equal &&
        Assign->getNumArgs() == 2 && moduleOf(Assign->getArg(0)) == Module) {
      if (const Stmt *Eval = evalOfReturnedModule(Assign->getArg(1), Ctx))
        FirstEval = FirstEval ? FirstEval : Eval;
      return true;
    }
    return ModeCalls::visit(S);
  }
};
} // namespace

/// Whether \p Method makes its object ready for use: a constructor, or a
/// method that the ReadyMethods guess takes to (load, setup, init, ...).
static bool makesReady(const CXXMethodDecl *Method, const NameGuesses &Names) {
  if (isa<CXXConstructorDecl>(Method))
    return true;
  return Method->getIdentifier() && Names.namesReadyMethod(Method->getName());
}

/// A member module that its class sets to evaluation mode and never back.
static const Stmt *evalByClass(const FieldDecl *Member, ASTContext &Ctx,
                               const NameGuesses &Names) {
  const auto *Class = dyn_cast<CXXRecordDecl>(Member->getParent());
  if (!Class || !Class->hasDefinition())
    return nullptr;
  // Set once where the object is made ready: a constructor, load(),
  // setup(), init(). An eval() elsewhere (before a test pass) says nothing
  // of the other methods.
  MemberModes Modes(Member, Ctx);
  const Stmt *ReadyEval = nullptr;
  for (const CXXMethodDecl *Method : Class->methods()) {
    const FunctionDecl *Def = Method->getDefinition();
    if (!Def || !Def->hasBody())
      continue;
    const Stmt *Before = Modes.FirstEval;
    // Initialised by a loader that leaves it in evaluation mode.
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Def))
      for (const CXXCtorInitializer *Init : Ctor->inits())
        if (Init->getMember() == Member && Init->isWritten() && !Modes.FirstEval)
          Modes.FirstEval = evalOfReturnedModule(Init->getInit(), Ctx);
    Modes.walk(Def->getBody());
    if (!ReadyEval && Modes.FirstEval != Before && makesReady(Method, Names))
      ReadyEval = Modes.FirstEval;
  }
  return Modes.Trains ? nullptr : ReadyEval;
}

/// The eval() that puts the module of parameter \p Param of its function
/// in evaluation mode before every call site of the function, found as at
/// a forward in each caller.
static const Stmt *
evalAtEveryCall(const ParmVarDecl *Param, ASTContext &Ctx,
                const CallSites &Callers,
                llvm::function_ref<const FunctionFlow *(const FunctionDecl *)> FlowOf,
                unsigned Depth);

static const Stmt *
evalModeOf(const ValueDecl *Model, const Stmt *At, const FunctionFlow *Flow,
           ASTContext &Ctx, const CallSites *Callers,
           llvm::function_ref<const FunctionFlow *(const FunctionDecl *)> FlowOf,
           unsigned Depth) {
  const auto *Param = dyn_cast_or_null<ParmVarDecl>(Model);
  auto AtEntry = [&]() -> const Stmt * {
    if (!Param || !Callers || !FlowOf || Depth >= 3)
      return nullptr;
    return evalAtEveryCall(Param, Ctx, *Callers, FlowOf, Depth);
  };
  return evalOnEveryPath(At, Model, Flow, Ctx, AtEntry);
}

static const Stmt *
evalAtEveryCall(const ParmVarDecl *Param, ASTContext &Ctx,
                const CallSites &Callers,
                llvm::function_ref<const FunctionFlow *(const FunctionDecl *)> FlowOf,
                unsigned Depth) {
  const auto *Function = dyn_cast_or_null<FunctionDecl>(Param->getDeclContext());
  if (!Function)
    return nullptr;
  auto Sites = Callers.of(Function);
  if (!Sites || Sites->empty())
    return nullptr;
  const Stmt *First = nullptr;
  for (const CallExpr *Site : *Sites) {
    const Expr *Arg = argumentFor(Site, Param->getFunctionScopeIndex());
    const FunctionDecl *Caller = enclosingFunction(Site, Ctx);
    const Stmt *Eval =
        Arg && Caller ? evalModeOf(moduleOf(Arg), Site, FlowOf(Caller), Ctx,
                                   &Callers, FlowOf, Depth + 1)
                      : nullptr;
    if (!Eval)
      return nullptr;
    if (!First)
      First = Eval;
  }
  return First;
}

const Stmt *evalModeAt(const Expr *Forward, const Stmt *At,
                       const FunctionFlow *Flow, ASTContext &Ctx,
                       const CallSites *Callers,
                       llvm::function_ref<const FunctionFlow *(const FunctionDecl *)>
                           FlowOf,
                       const NameGuesses &Names) {
  const ValueDecl *Model = moduleOf(forwardObject(Forward));
  if (const Stmt *Eval = evalModeOf(Model, At, Flow, Ctx, Callers, FlowOf, 0))
    return Eval;
  if (const auto *Member = dyn_cast_or_null<FieldDecl>(Model)) {
    // The class's mode holds unless this function changes it itself.
    if (Flow && Flow->valid()) {
      auto Nearest = Flow->nearestBefore(At, [&](const Stmt *S) {
        return modeSetBy(S, Ctx) != ModuleMode::None &&
               moduleOf(cast<CXXMemberCallExpr>(S)->getImplicitObjectArgument()) ==
                   Member;
      });
      if (!Nearest.Found.empty())
        return nullptr;
    }
    // A method that trains (a backward pass, an optimizer step) is no
    // evaluation code, whatever mode it finds the module in.
    const Stmt *Body = enclosingFunctionBody(At, Ctx);
    if (Body && trainsIn(Body))
      return nullptr;
    return evalByClass(Member, Ctx, Names);
  }
  return nullptr;
}

namespace {
/// Whether a statement may put a given local module in evaluation mode.
class EvalSetter : public StmtWalk {
public:
  EvalSetter(const ValueDecl *Module, const ASTContext &Ctx)
      : StmtWalk(Options{/*TemplateInstantiations=*/false,
                         /*LambdaBodies=*/true}),
        Module(Module), Ctx(Ctx) {}
  bool Found = false;
  bool visit(Stmt *S) override {
    if (!isa<CallExpr>(S))
      return true;
    ModeChange Change = modeChangeBy(S, Ctx, Module);
    if (Change.Mode == ModuleMode::Eval &&
        (!Change.ModuleKnown || !Change.Module || Change.Module == Module)) {
      Found = true;
      return false;
    }
    return true;
  }

private:
  const ValueDecl *Module;
  const ASTContext &Ctx;
};
} // namespace

bool trainingThroughout(const Expr *Object, const FunctionDecl *Function,
                        const ASTContext &Ctx) {
  const auto *Var = dyn_cast_or_null<VarDecl>(moduleOf(Object));
  if (!Var || isa<ParmVarDecl>(Var) || !Var->hasLocalStorage() ||
      Var->getType()->isReferenceType() || !Function || !Function->hasBody() ||
      Var->getDeclContext() != Function)
    return false;
  EvalSetter Setter(Var, Ctx);
  Setter.walk(Function->getBody());
  return !Setter.Found;
}

/// Whether \p Cond is `is_training()` of a module (on `this` or not), and
/// whether it is negated.
static std::optional<bool> isTrainingTest(const Expr *Cond) {
  bool Negated = false;
  const auto *Call = dyn_cast_or_null<CXXMemberCallExpr>(withoutNots(Cond, Negated));
  const CXXMethodDecl *MD = Call ? Call->getMethodDecl() : nullptr;
  if (!MD || !MD->getIdentifier() || MD->getName() != "is_training" ||
      !isModuleClass(MD->getParent()))
    return std::nullopt;
  return Negated;
}

/// Whether \p S ends in a return on every path: a return, or a block whose
/// last statement is one.
static bool alwaysReturns(const Stmt *S) {
  if (const auto *Block = dyn_cast_or_null<CompoundStmt>(S))
    return !Block->body_empty() && alwaysReturns(Block->body_back());
  return isa_and_nonnull<ReturnStmt>(S);
}

bool inBranchNotTakenIn(ModuleMode Mode, const Stmt *S,
                        const FunctionDecl *Function, ASTContext &Ctx) {
  if (Mode == ModuleMode::None || !Function || !Function->hasBody())
    return false;
  DynTypedNode Node = DynTypedNode::create(*S);
  for (unsigned Depth = 0; Depth < 64; ++Depth) {
    auto Parents = Ctx.getParents(Node);
    if (Parents.empty())
      return false;
    const DynTypedNode &Parent = Parents[0];
    // After `if (is_training()) { ...; return ...; }` (no else), the rest
    // of the block runs only in the other mode.
    if (const auto *Block = Parent.get<CompoundStmt>()) {
      const Stmt *Child = Node.get<Stmt>();
      for (const Stmt *Before : Block->body()) {
        if (Before == Child)
          break;
        const auto *If = dyn_cast<IfStmt>(Before);
        if (!If || If->getElse() || !alwaysReturns(If->getThen()))
          continue;
        if (auto Negated = isTrainingTest(If->getCond()))
          // The rest runs in training mode when the test was negated.
          if (*Negated != (Mode == ModuleMode::Train))
            return true;
      }
    }
    if (const auto *If = Parent.get<IfStmt>()) {
      const Stmt *Child = Node.get<Stmt>();
      if (Child && (Child == If->getThen() || Child == If->getElse()))
        if (auto Negated = isTrainingTest(If->getCond())) {
          // The branch runs in training mode when it is the `then` of an
          // is_training() test, or the `else` of a negated one.
          bool RunsTraining = (Child == If->getThen()) != *Negated;
          if (RunsTraining != (Mode == ModuleMode::Train))
            return true;
        }
    }
    if (Parent.get<Stmt>() == Function->getBody() ||
        Parent.get<FunctionDecl>() || Parent.get<LambdaExpr>())
      return false;
    Node = Parent;
  }
  return false;
}

} // namespace torch_tidy::analysis
