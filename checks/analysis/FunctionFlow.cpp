//===--- FunctionFlow.cpp - Order of evaluation inside one function -------===//

#include "checks/analysis/FunctionFlow.h"

#include "checks/analysis/ExprUtils.h"
#include "checks/analysis/TorchTypes.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace torch_tidy::analysis {

/// Methods that change their object and keep what it held before.
static bool isUpdatingMethod(llvm::StringRef Name) {
  if (llvm::is_contained({"push_back", "emplace_back", "push_front",
                          "emplace_front", "insert", "emplace", "append",
                          "insert_or_assign", "try_emplace"},
                         Name))
    return true;
  // LibTorch's in-place tensor operations end in an underscore.
  return Name.size() > 1 && Name.ends_with("_") && Name != "detach_";
}

static bool names(const Expr *E, const ValueDecl *Var) {
  return referencedDecl(E) == Var;
}

/// A Replace of \p Var that \p Method's body makes unconditionally, among
/// its top-level statements.
static std::optional<Definition> unconditionalReplaceIn(const CXXMethodDecl *Method,
                                                        const ValueDecl *Var) {
  const FunctionDecl *Def = Method->getDefinition();
  const auto *Body = Def ? dyn_cast_or_null<CompoundStmt>(Def->getBody()) : nullptr;
  if (!Body)
    return std::nullopt;
  for (const Stmt *Child : Body->body()) {
    if (const auto *E = dyn_cast<Expr>(Child))
      Child = stripWrappers(E);
    if (isa<CXXMemberCallExpr>(Child))
      continue; // one level: no method that calls another
    if (auto Found = definitionAt(Child, Var);
        Found && Found->Kind == Definition::Replace)
      return Found;
  }
  return std::nullopt;
}

/// Whether \p FD is a function of the user's whose body is not in the unit.
static bool isOpaqueUserFunction(const FunctionDecl *FD) {
  return FD && !FD->hasBody() && !isLibraryFunction(FD) &&
         !FD->getASTContext().getSourceManager().isInSystemHeader(
             FD->getLocation());
}

/// `f(model, x, out)` with `out` a tensor handed to a function whose body is
/// not in the unit by non-const reference: the callee writes it (an output
/// parameter). What it writes is answered by the call, as for its result.
static std::optional<Definition> outputArgumentAt(const CallExpr *Call,
                                                  const ValueDecl *Var) {
  if (isa<CXXOperatorCallExpr>(Call))
    return std::nullopt;
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!isOpaqueUserFunction(FD))
    return std::nullopt;
  for (unsigned I = 0, N = FD->getNumParams(); I < N && I < Call->getNumArgs();
       ++I) {
    QualType T = FD->getParamDecl(I)->getType();
    if (!isMutableReference(T) ||
        !isTensorType(T.getNonReferenceType()))
      continue;
    const Expr *Arg = Call->getArg(I);
    if (names(Arg, Var))
      return Definition{Definition::Replace, Call, {Call}};
    // f(model, x, outs[i]): an element of the container is written.
    if (containerOf(Arg) != stripWrappers(Arg) && names(containerOf(Arg), Var))
      return Definition{Definition::Update, Call, {Call}};
  }
  return std::nullopt;
}

/// `v.f = e`, `v.f.g += e`, with \p Var a struct of tensors: the index of
/// the field of v that \p LHS writes.
static std::optional<int> fieldWritten(const Expr *LHS, const ValueDecl *Var) {
  if (!isa<VarDecl>(Var) || !isTensorAggregate(Var->getType()))
    return std::nullopt;
  const auto *Member = dyn_cast<MemberExpr>(stripWrappers(LHS));
  for (unsigned Depth = 0; Member && !Member->isArrow() && Depth < 4; ++Depth) {
    const Expr *Base = stripWrappers(Member->getBase());
    if (names(Base, Var)) {
      const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl());
      if (!Field)
        return std::nullopt;
      return static_cast<int>(Field->getFieldIndex());
    }
    Member = dyn_cast<MemberExpr>(Base);
  }
  return std::nullopt;
}

/// Whether \p E is the object of the method, or one of its members, or an
/// element of either (`*this`, `this->operator[](k)`, `history_`, `buf_[i]`).
static bool isOwnState(const Expr *E) {
  E = stripWrappers(containerOf(E));
  if (isa_and_nonnull<CXXThisExpr>(E))
    return true;
  if (const auto *Op = dyn_cast_or_null<UnaryOperator>(E);
      Op && Op->getOpcode() == UO_Deref)
    return isa<CXXThisExpr>(stripWrappers(Op->getSubExpr()));
  const auto *Member = dyn_cast_or_null<MemberExpr>(E);
  return Member && isa<CXXThisExpr>(stripWrappers(Member->getBase()));
}

/// Whether the body of \p Method writes a tensor computed from \p Param
/// into its object or one of its members (`total_ += loss`,
/// `this->operator[](key) = value`, `history_.push_back(loss)`).
static bool keepsParameter(const FunctionDecl *Method, const ParmVarDecl *Param) {
  llvm::SmallVector<const Stmt *, 32> Work{Method->getBody()};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S || isa<LambdaExpr>(S))
      continue;
    const Expr *Target = nullptr;
    llvm::SmallVector<const Expr *, 2> Values;
    if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp()) {
      Target = BO->getLHS();
      Values.push_back(BO->getRHS());
    } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S);
               Op && Op->isAssignmentOp() && Op->getNumArgs() == 2) {
      Target = Op->getArg(0);
      Values.push_back(Op->getArg(1));
    } else if (const auto *Call = dyn_cast<CXXMemberCallExpr>(S)) {
      const CXXMethodDecl *MD = Call->getMethodDecl();
      if (MD && MD->getIdentifier() && isUpdatingMethod(MD->getName())) {
        Target = inPlaceChainRoot(Call->getImplicitObjectArgument());
        Values.append(Call->arg_begin(), Call->arg_end());
      }
    }
    if (Target && isOwnState(Target) &&
        llvm::any_of(Values, [&](const Expr *V) {
          return holdsTensorsOrFields(V->getType()) && mentions(V, Param);
        }))
      return true;
    for (const Stmt *Child : S->children())
      Work.push_back(Child);
  }
  return false;
}

/// The arguments of \p Call, a call of a non-const method of the user's
/// class (not a module), that its object may keep: `acc.accumulate("energy",
/// e)`. With the method's body in the unit, those whose parameter it writes
/// into its object or a member; without it, every one that holds tensors.
static llvm::SmallVector<const Expr *, 2>
keptArguments(const CXXMemberCallExpr *Call) {
  llvm::SmallVector<const Expr *, 2> Kept;
  const CXXMethodDecl *MD = Call->getMethodDecl();
  if (!MD || MD->isConst() || MD->isStatic() || isLibraryFunction(MD) ||
      isModuleClass(MD->getParent()) ||
      MD->getASTContext().getSourceManager().isInSystemHeader(MD->getLocation()))
    return Kept;
  const FunctionDecl *Def = MD->getDefinition();
  bool InView = Def && Def->hasBody();
  for (unsigned I = 0, N = std::min(Call->getNumArgs(), MD->getNumParams());
       I < N; ++I) {
    const Expr *Arg = Call->getArg(I);
    if (holdsTensors(Arg->getType()) &&
        (!InView || keepsParameter(Def, Def->getParamDecl(I))))
      Kept.push_back(Arg);
  }
  return Kept;
}

/// Whether \p Lambda refers to \p Var as the enclosing function's own: a
/// local captured by reference, or a member through a captured `this`.
static bool capturesByReference(const LambdaExpr *Lambda, const ValueDecl *Var) {
  return llvm::any_of(Lambda->captures(), [&](const LambdaCapture &Capture) {
    if (isa<FieldDecl>(Var))
      return Capture.getCaptureKind() == LCK_This;
    return Capture.capturesVariable() && Capture.getCapturedVar() == Var &&
           Capture.getCaptureKind() == LCK_ByRef;
  });
}

/// A call that runs a lambda of the function, or hands one to code that
/// runs it (`closure();`, `optimizer.step(closure);` with the closure
/// assigning `losses = compute(...)`): what the lambda writes into a
/// variable it captures by reference is written here. Each write may or
/// may not run, so the old value may stay.
static std::optional<Definition>
definitionWithin(const Stmt *S, const ValueDecl *Var, unsigned Depth);
static void writesWithin(const Stmt *Body, const ValueDecl *Var,
                         unsigned Depth,
                         llvm::SmallVectorImpl<const Expr *> &Values);

static std::optional<Definition> lambdaWriteAt(const CallExpr *Call,
                                               const ValueDecl *Var,
                                               unsigned Depth) {
  llvm::SmallVector<const Expr *, 4> Handed(Call->arguments());
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
      Op && Op->getOperator() == OO_Call)
    Handed.push_back(Op->getArg(0));
  // A lambda that runs itself (through a std::function it captures), or
  // lambdas nested deeply, are followed a few levels only.
  if (Depth >= 3)
    return std::nullopt;
  Definition Def{Definition::Update, Call, {}};
  for (const Expr *E : Handed) {
    const LambdaExpr *Lambda = lambdaHeldBy(E);
    if (!Lambda || !capturesByReference(Lambda, Var))
      continue;
    writesWithin(Lambda->getBody(), Var, Depth + 1, Def.Values);
  }
  if (Def.Values.empty())
    return std::nullopt;
  return Def;
}

/// The values \p Body (a lambda's or a method's, run from where it is
/// followed; \p Depth bodies deep) writes into \p Var.
static void writesWithin(const Stmt *Body, const ValueDecl *Var,
                         unsigned Depth,
                         llvm::SmallVectorImpl<const Expr *> &Values) {
  llvm::SmallVector<const Stmt *, 32> Work{Body};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S || isa<LambdaExpr>(S))
      continue;
    if (auto Inner = definitionWithin(S, Var, Depth);
        Inner && Inner->Kind != Definition::Entry)
      llvm::append_range(Values, Inner->Values);
    llvm::append_range(Work, S->children());
  }
}

/// `forward(x);` in another method of the same object, whose body (in the
/// unit) writes the member \p Var (`taps_.push_back(h)` in a forward that
/// gathers each level's output): what it writes is written here. It may
/// keep what the member held, so the old value may stay. A few calls deep.
static std::optional<Definition> methodWriteAt(const CXXMemberCallExpr *Call,
                                               const ValueDecl *Var,
                                               unsigned Depth) {
  const Expr *Object = Call->getImplicitObjectArgument();
  const CXXMethodDecl *Method = Call->getMethodDecl();
  const FunctionDecl *Def = Method ? Method->getDefinition() : nullptr;
  if (Depth >= 3 || !isa<FieldDecl>(Var) || !Object ||
      !isa<CXXThisExpr>(stripWrappers(Object)) || !Def || !Def->hasBody())
    return std::nullopt;
  Definition Write{Definition::Update, Call, {}};
  writesWithin(Def->getBody(), Var, Depth + 1, Write.Values);
  if (Write.Values.empty())
    return std::nullopt;
  return Write;
}

std::optional<Definition> definitionAt(const Stmt *S, const ValueDecl *Var) {
  return definitionWithin(S, Var, 0);
}

/// definitionAt, inside \p Depth levels of lambda and method bodies
/// followed from where they run.
static std::optional<Definition>
definitionWithin(const Stmt *S, const ValueDecl *Var, unsigned Depth) {
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    if (auto Def = outputArgumentAt(Call, Var))
      return Def;
    if (auto Def = lambdaWriteAt(Call, Var, Depth))
      return Def;
  }
  // out.total = loss: one field of a struct of tensors changes.
  const Expr *AssignedTo = nullptr, *AssignedValue = nullptr;
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp()) {
    AssignedTo = BO->getLHS();
    AssignedValue = BO->getRHS();
  } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S);
             Op && Op->isAssignmentOp() && Op->getNumArgs() == 2) {
    AssignedTo = Op->getArg(0);
    AssignedValue = Op->getArg(1);
  }
  if (AssignedTo)
    if (auto Field = fieldWritten(AssignedTo, Var)) {
      Definition Def{Definition::Update, S, {AssignedValue}};
      Def.Field = *Field;
      return Def;
    }
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      // A static local is initialised once, not each time this runs.
      if (D == Var && cast<VarDecl>(D)->hasLocalStorage()) {
        Definition Def{Definition::Replace, S, {}};
        if (const Expr *Init = cast<VarDecl>(D)->getInit())
          Def.Values.push_back(Init);
        return Def;
      }
    return std::nullopt;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    if (!BO->isAssignmentOp() || !names(BO->getLHS(), Var))
      return std::nullopt;
    return Definition{BO->getOpcode() == BO_Assign ? Definition::Replace
                                                   : Definition::Update,
                      S,
                      {BO->getRHS()}};
  }
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S)) {
    if (!Op->isAssignmentOp() || Op->getNumArgs() != 2)
      return std::nullopt;
    const Expr *LHS = Op->getArg(0);
    bool Plain = Op->getOperator() == OO_Equal;
    if (names(LHS, Var))
      return Definition{Plain ? Definition::Replace : Definition::Update,
                        S,
                        {Op->getArg(1)}};
    if (Plain)
      for (auto [Tied, Element] : tiedElements(LHS))
        if (Tied == Var)
          return Definition{Definition::Replace, S, {Op->getArg(1)}, Element};
    // v[k] = e, v.at(k) = e: an element of v changes.
    if (containerOf(LHS) != stripWrappers(LHS) && names(containerOf(LHS), Var))
      return Definition{Definition::Update, S, {Op->getArg(1)}};
    return std::nullopt;
  }
  if (const auto *Call = dyn_cast<CXXMemberCallExpr>(S)) {
    const CXXMethodDecl *MD = Call->getMethodDecl();
    const Expr *Object = Call->getImplicitObjectArgument();
    if (!MD || !MD->getIdentifier() || !Object)
      return std::nullopt;
    // resetState() on this object: a method that sets the member before
    // anything else can happen to it replaces it here.
    if (isa<FieldDecl>(Var) && isa<CXXThisExpr>(stripWrappers(Object)))
      if (auto Def = unconditionalReplaceIn(MD, Var)) {
        Def->At = S;
        return Def;
      }
    if (auto Def = methodWriteAt(Call, Var, Depth))
      return Def;
    llvm::StringRef Name = MD->getName();
    // ema.mul_(0.9).add_(x) updates ema as well.
    bool OnVar = names(Object, Var) ||
                 (isUpdatingMethod(Name) && names(inPlaceChainRoot(Object), Var));
    // x.slice(0, a, b).sigmoid_().add_(e) updates an element of x.
    bool OnElement =
        !OnVar && (names(containerOf(Object), Var) ||
                   (isUpdatingMethod(Name) &&
                    names(containerOf(inPlaceChainRoot(Object)), Var)));
    // out.levels.push_back(t): one field of a struct of tensors changes.
    if (!OnVar && !OnElement) {
      auto Field = fieldWritten(Object, Var);
      if (!Field || !isUpdatingMethod(Name))
        return std::nullopt;
      Definition Def{Definition::Update, S, {}};
      Def.Field = *Field;
      for (const Expr *Arg : Call->arguments())
        Def.Values.push_back(Arg);
      return Def;
    }
    // clear() empties a container; detach_() cuts a tensor's history;
    // reset() leaves an undefined tensor.
    if (OnVar && (Name == "clear" || Name == "detach_" || Name == "reset"))
      return Definition{Definition::Replace, S, {}};
    if (Name == "requires_grad_" || Name == "set_requires_grad")
      return Definition{Definition::Update, S, {Call}};
    if (isUpdatingMethod(Name)) {
      Definition Def{Definition::Update, S, {}};
      for (const Expr *Arg : Call->arguments())
        Def.Values.push_back(Arg);
      return Def;
    }
    // tracker.add(loss): a method of the user's class that keeps what it
    // is handed.
    if (OnVar)
      if (auto Kept = keptArguments(Call); !Kept.empty())
        return Definition{Definition::Update, S, Kept};
  }
  return std::nullopt;
}

FunctionFlow::FunctionFlow(const FunctionDecl *Function, ASTContext &Ctx)
    : Ctx(Ctx), Function(Function) {
  if (!Function || !Function->hasBody())
    return;
  CFG::BuildOptions Options;
  Options.setAllAlwaysAdd();
  Options.AddImplicitDtors = false;
  Options.AddTemporaryDtors = false;
  Options.AddCXXDefaultInitExprInCtors = true;
  Cfg = CFG::buildCFG(Function, Function->getBody(), &Ctx, Options);
  if (!Cfg)
    return;
  for (const CFGBlock *Block : *Cfg) {
    unsigned Index = 0;
    for (const CFGElement &Element : *Block) {
      if (auto S = Element.getAs<CFGStmt>())
        Position.try_emplace(S->getStmt(), Block, Index);
      ++Index;
    }
  }
}

std::optional<std::pair<const CFGBlock *, unsigned>>
FunctionFlow::positionOf(const Stmt *S) const {
  DynTypedNode Node = DynTypedNode::create(*S);
  for (unsigned Depth = 0; Depth < 64; ++Depth) {
    if (const auto *Current = Node.get<Stmt>()) {
      auto It = Position.find(Current);
      if (It != Position.end())
        return It->second;
    }
    auto Parents = Ctx.getParents(Node);
    if (Parents.empty())
      return std::nullopt;
    Node = Parents[0];
  }
  return std::nullopt;
}

bool FunctionFlow::walkBack(
    llvm::SmallVector<std::pair<const CFGBlock *, unsigned>, 16> Work,
    llvm::function_ref<bool(const Stmt *)> EndsPath,
    llvm::function_ref<bool(const CFGBlock *)> Follow) const {
  llvm::SmallPtrSet<const CFGBlock *, 32> Visited;
  bool ReachedEntry = false;
  while (!Work.empty()) {
    auto [Block, End] = Work.pop_back_val();
    bool Ended = false;
    for (unsigned I = End; I-- > 0 && !Ended;)
      if (auto S = (*Block)[I].getAs<CFGStmt>())
        Ended = EndsPath(S->getStmt());
    if (Ended)
      continue;
    if (Block == &Cfg->getEntry()) {
      ReachedEntry = true;
      continue;
    }
    for (const CFGBlock *Pred : Block->preds())
      if (Pred && Visited.insert(Pred).second && Follow(Pred))
        Work.emplace_back(Pred, Pred->size());
  }
  return ReachedEntry;
}

FunctionFlow::Nearest
FunctionFlow::nearestBefore(const Stmt *Use,
                            llvm::function_ref<bool(const Stmt *)> Pred) const {
  Nearest Result;
  auto Start = Cfg ? positionOf(Use) : std::nullopt;
  if (!Start) {
    Result.ReachesEntry = true;
    return Result;
  }
  Result.ReachesEntry = walkBack(
      {*Start},
      [&](const Stmt *S) {
        if (!Pred(S))
          return false;
        Result.Found.push_back(S);
        return true;
      },
      [](const CFGBlock *) { return true; });
  return Result;
}

bool FunctionFlow::collectBackwards(
    const ValueDecl *Var,
    llvm::SmallVector<std::pair<const CFGBlock *, unsigned>, 16> Work,
    llvm::SmallVectorImpl<Definition> &Result) const {
  return walkBack(
      std::move(Work),
      [&](const Stmt *S) {
        auto Def = definitionAt(S, Var);
        if (!Def)
          return false;
        Result.push_back(*Def);
        return Def->Kind == Definition::Replace;
      },
      [](const CFGBlock *) { return true; });
}

llvm::SmallVector<Definition, 4>
FunctionFlow::reachingDefinitions(const ValueDecl *Var, const Stmt *Use) const {
  llvm::SmallVector<Definition, 4> Result;
  auto Start = Cfg ? positionOf(Use) : std::nullopt;
  if (!Start || collectBackwards(Var, {*Start}, Result))
    Result.push_back({Definition::Entry, nullptr, {}});
  return Result;
}

llvm::SmallVector<Definition, 4>
FunctionFlow::definitionsAtExit(const ValueDecl *Var) const {
  llvm::SmallVector<Definition, 4> Result;
  if (!Cfg || collectBackwards(Var, {{&Cfg->getExit(), Cfg->getExit().size()}},
                               Result))
    Result.push_back({Definition::Entry, nullptr, {}});
  return Result;
}

FunctionFlow::Carried
FunctionFlow::carriedDefinitions(const ValueDecl *Var, const Stmt *Use,
                                 const Stmt *Loop) const {
  Carried Result;
  auto Start = Cfg ? positionOf(Use) : std::nullopt;
  if (!Start) {
    Result.Crosses = true;
    Result.Defs.push_back({Definition::Entry, nullptr, {}});
    return Result;
  }
  // Back from the use to the iteration's start (the loop's header block,
  // whose terminator is the loop) or to the function's entry, stopping at
  // a Replace of the variable: what is left crosses over.
  llvm::SmallVector<std::pair<const CFGBlock *, unsigned>, 16> Headers;
  bool ReachedEntry = walkBack(
      {*Start},
      [&](const Stmt *S) {
        auto Def = definitionAt(S, Var);
        return Def && Def->Kind == Definition::Replace;
      },
      [&](const CFGBlock *Pred) {
        if (!Loop || Pred->getTerminatorStmt() != Loop)
          return true;
        Headers.emplace_back(Pred, Pred->size());
        return false;
      });
  Result.Crosses = ReachedEntry || !Headers.empty();
  if (!Headers.empty() && collectBackwards(Var, Headers, Result.Defs))
    ReachedEntry = true;
  if (ReachedEntry)
    Result.Defs.push_back({Definition::Entry, nullptr, {}});
  return Result;
}

} // namespace torch_tidy::analysis
