//===--- Outlives.cpp - O: does the target outlive the iteration? ---------===//

#include "checks/analysis/Outlives.h"

#include "checks/analysis/BackwardPasses.h"
#include "checks/analysis/Differentiated.h"
#include "checks/analysis/ExprUtils.h"
#include "checks/analysis/FunctionFlow.h"
#include "checks/analysis/History.h"
#include "checks/analysis/LoopScope.h"
#include "checks/analysis/ModuleMode.h"
#include "checks/analysis/SummaryData.h"
#include "checks/analysis/StepWindow.h"
#include "checks/analysis/TensorSources.h"
#include "checks/analysis/TorchTypes.h"
#include "checks/analysis/Walk.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Lex/Lexer.h"
#include "clang/Basic/SourceManager.h"

#include <set>

using namespace clang;

namespace torch_tidy::analysis {

/// The variable or field an lvalue finally refers to: through element
/// accesses, member accesses on local objects, and local references.
static const ValueDecl *rootOf(const Expr *Target, bool &ThroughThis) {
  ThroughThis = false;
  for (unsigned Depth = 0; Depth < 8; ++Depth) {
    const Expr *Base = containerOf(Target);
    if (const auto *Member = dyn_cast<MemberExpr>(Base)) {
      const Expr *Object = stripWrappers(Member->getBase());
      if (isa<CXXThisExpr>(Object))
        ThroughThis = true;
      if (isa<CXXThisExpr>(Object) || !referencedDecl(Object) ||
          Member->isArrow())
        return Member->getMemberDecl();
      // obj.field: the lifetime of obj.
      Target = Object;
      continue;
    }
    const ValueDecl *D = referencedDecl(Base);
    const auto *Var = dyn_cast_or_null<VarDecl>(D);
    // A local reference to something else: that something.
    if (Var && Var->getType()->isReferenceType() && !isa<ParmVarDecl>(Var) &&
        Var->getInit() && referencedDecl(containerOf(Var->getInit()))) {
      Target = Var->getInit();
      continue;
    }
    return D;
  }
  return nullptr;
}

/// Whether \p D is declared inside \p S.
static bool isDeclaredWithin(const ValueDecl *D, const Stmt *S,
                             const SourceManager &SM) {
  SourceLocation Loc = D->getLocation();
  return SM.isBeforeInTranslationUnit(S->getBeginLoc(), Loc) &&
         SM.isBeforeInTranslationUnit(Loc, S->getEndLoc());
}

namespace {
/// Whether \p Loop calls a non-const method of the object whose method it
/// is in (`this->reset()`, `step()`), which may write any of its members.
bool callsNonConstOwnMethod(const Stmt *Loop) {
  class Calls : public StmtWalk {
  public:
    Calls()
        : StmtWalk(Options{/*TemplateInstantiations=*/false,
                           /*LambdaBodies=*/true}) {}
    bool Found = false;
    bool visit(Stmt *S) override {
      if (const auto *Call = dyn_cast<CXXMemberCallExpr>(S))
        if (const CXXMethodDecl *MD = Call->getMethodDecl();
            MD && !MD->isConst() &&
            isa<CXXThisExpr>(stripWrappers(Call->getImplicitObjectArgument())))
          Found = true;
      return !Found;
    }
  } W;
  W.walk(Loop);
  return W.Found;
}

/// The definitions of \p D inside \p Loop (its declaration included), in
/// the bodies of the lambdas it makes too when \p InLambdas; with \p First,
/// only the first one found.
llvm::SmallVector<Definition, 4> definitionsIn(const ValueDecl *D,
                                               const Stmt *Loop,
                                               bool InLambdas = false,
                                               bool First = false) {
  class Definitions : public StmtWalk {
  public:
    Definitions(const ValueDecl *D, bool InLambdas, bool First)
        : StmtWalk(Options{/*TemplateInstantiations=*/false,
                           /*LambdaBodies=*/InLambdas}),
          D(D), First(First) {}
    llvm::SmallVector<Definition, 4> Found;
    bool visit(Stmt *S) override {
      if (isa<CallExpr, BinaryOperator, DeclStmt>(S))
        if (auto Def = definitionAt(S, D))
          Found.push_back(std::move(*Def));
      return !(First && !Found.empty());
    }

  private:
    const ValueDecl *D;
    bool First;
  } W(D, InLambdas, First);
  W.walk(Loop);
  return W.Found;
}

/// Whether \p Loop writes \p D anywhere (assigns, updates, clears it),
/// also in the lambdas it makes.
bool writtenIn(const ValueDecl *D, const Stmt *Loop) {
  return !definitionsIn(D, Loop, /*InLambdas=*/true, /*First=*/true).empty();
}

/// Whether \p Call is an in-place tensor method that brings no value in
/// (`sigmoid_()`, `clamp_(0, 1)`, `mul_(0.5)`): it changes the elements of
/// its object, not which graph the object belongs to.
bool isSelfContainedInPlace(const CXXMemberCallExpr *Call) {
  if (!isInPlaceTensorCall(Call) ||
      Call->getMethodDecl()->getName() == "requires_grad_")
    return false;
  return llvm::none_of(Call->arguments(), [](const Expr *Arg) {
    return holdsTensors(Arg->getType());
  });
}

/// Whether \p Loop gives \p D a value it did not hold before: assigns it,
/// or updates it with one that holds tensors (`v += e`, `v.add_(e)`,
/// `v.push_back(e)`); an update in place that brings nothing in
/// (`v.slice(0, a, b).sigmoid_()`) leaves it a part of the same graph.
bool takesValuesIn(const ValueDecl *D, const Stmt *Loop) {
  return llvm::any_of(
      definitionsIn(D, Loop, /*InLambdas=*/true), [](const Definition &Def) {
        const auto *Call = dyn_cast<CXXMemberCallExpr>(Def.At);
        return Def.Kind != Definition::Update || !Call ||
               !isSelfContainedInPlace(Call);
      });
}

/// The variable, or member of the object whose method this is, that
/// \p Value is a part of: itself, a field or an element of it (`out.preds`,
/// `v[i]`, `v.at(i)`, `std::get<I>(t)`), a view of it (`select`, `slice`,
/// `narrow`, `view`, `reshape`, ...), a selection from it (`index_select`,
/// `masked_select`, `gather`), or such a part changed in place by an op
/// that brings nothing in (`slice(0, a, b).sigmoid_()`). A DeclRefExpr of a
/// VarDecl or a MemberExpr on `this`; nullptr for any other value.
const Expr *pieceRoot(const Expr *Value) {
  for (unsigned Depth = 0; Value && Depth < 16; ++Depth) {
    Value = stripWrappers(Value)->IgnoreParenImpCasts();
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Value))
      return isa<VarDecl>(Ref->getDecl()) ? Ref : nullptr;
    if (const auto *Sub = dyn_cast<ArraySubscriptExpr>(Value)) {
      Value = Sub->getBase();
      continue;
    }
    if (const auto *Member = dyn_cast<MemberExpr>(Value)) {
      if (!isa<FieldDecl>(Member->getMemberDecl()))
        return nullptr;
      if (isa<CXXThisExpr>(stripWrappers(Member->getBase())))
        return Member;
      // out.preds: a field of a local struct is a part of it.
      if (Member->isArrow())
        return nullptr;
      Value = Member->getBase();
      continue;
    }
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Value)) {
      if (Op->getOperator() != OO_Subscript || Op->getNumArgs() < 1)
        return nullptr;
      Value = Op->getArg(0);
      continue;
    }
    if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Value)) {
      const CXXMethodDecl *Method = Member->getMethodDecl();
      // The tensor an element reference stands for (a c10::List's).
      if (isa_and_nonnull<CXXConversionDecl>(Method)) {
        Value = Member->getImplicitObjectArgument();
        continue;
      }
      if (!Method || !Method->getIdentifier())
        return nullptr;
      static constexpr llvm::StringLiteral Parts[] = {
          "at",      "front",   "back",    "index",     "select",
          "slice",   "narrow",  "view",    "reshape",   "squeeze",
          "unsqueeze", "flatten", "expand", "permute",  "transpose",
          "chunk",   "split",   "unbind",  "get",       "index_select",
          "masked_select", "gather", "contiguous"};
      if (!llvm::is_contained(Parts, Method->getName()) &&
          !isSelfContainedInPlace(Member))
        return nullptr;
      Value = Member->getImplicitObjectArgument();
      continue;
    }
    if (const auto *Call = dyn_cast<CallExpr>(Value)) {
      const FunctionDecl *Callee = Call->getDirectCallee();
      if (!Callee || Call->getNumArgs() < 1 ||
          Callee->getQualifiedNameAsString() != "std::get")
        return nullptr;
      Value = Call->getArg(0);
      continue;
    }
    return nullptr;
  }
  return nullptr;
}

bool isPartOfLoopInvariant(const Expr *Value, const Stmt *Loop,
                           const SourceManager &SM, unsigned Locals);

/// The range-based for statement, \p Loop or one inside it, whose loop
/// variable \p Var is; nullptr when there is none.
const CXXForRangeStmt *rangeLoopOf(const VarDecl *Var, const Stmt *Loop) {
  llvm::SmallVector<const Stmt *, 32> Work{Loop};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S || isa<LambdaExpr>(S))
      continue;
    if (const auto *Range = dyn_cast<CXXForRangeStmt>(S);
        Range && Range->getLoopVariable() == Var)
      return Range;
    llvm::append_range(Work, S->children());
  }
  return nullptr;
}

/// Whether \p Var, the loop variable of a range-based for statement in or
/// at \p Loop, is an element of a range that exists before \p Loop's
/// iterations: the range of \p Loop itself is evaluated once, before them
/// (`for (auto &&level : preds) outputs.emplace_back(level);` splits one
/// forward's outputs); that of a loop inside it must be a part of a value
/// \p Loop does not write.
bool isElementOfLoopInvariant(const VarDecl *Var, const Stmt *Loop,
                              const SourceManager &SM, unsigned Locals) {
  const CXXForRangeStmt *Range = rangeLoopOf(Var, Loop);
  if (!Range || !Range->getRangeInit())
    return false;
  if (Range != Loop)
    return Locals > 0 &&
           isPartOfLoopInvariant(Range->getRangeInit(), Loop, SM, Locals - 1);
  // Evaluated once; only a variable the body writes changes under it.
  const auto *Ref = dyn_cast_or_null<DeclRefExpr>(pieceRoot(Range->getRangeInit()));
  return !Ref || !takesValuesIn(Ref->getDecl(), Range->getBody());
}

/// Whether \p Var, declared inside \p Loop, only ever holds pieces of
/// values the loop does not write: every definition of it in the loop
/// replaces it with such a piece, or with a piece of itself (`auto layer =
/// scores.slice(0, begin, end); layer = layer.index_select(0, top);`).
bool holdsOnlyPiecesOfLoopInvariants(const VarDecl *Var, const Stmt *Loop,
                                     const SourceManager &SM,
                                     unsigned Locals) {
  if (Locals == 0 || !Var->hasLocalStorage() || isa<ParmVarDecl>(Var) ||
      Var->getType()->isReferenceType() || !isTensorType(Var->getType()))
    return false;
  auto Defs = definitionsIn(Var, Loop);
  if (Defs.empty())
    return false;
  for (const Definition &Def : Defs) {
    if (Def.Kind != Definition::Replace || Def.Values.empty())
      return false;
    for (const Expr *V : Def.Values) {
      // A piece of the variable itself: judged by its other definitions.
      if (const auto *Ref = dyn_cast_or_null<DeclRefExpr>(pieceRoot(V));
          Ref && Ref->getDecl() == Var)
        continue;
      if (!isPartOfLoopInvariant(V, Loop, SM, Locals - 1))
        return false;
    }
  }
  return true;
}

/// Whether \p Value is a part (see pieceRoot) of a variable that \p Loop
/// does not write, of a member of the object that the loop neither writes
/// nor lets another method of the object write, or of a variable of the
/// loop that only ever holds such pieces. Such a value adds no graph per
/// iteration: the loop hands out pieces of one that existed before it.
bool isPartOfLoopInvariant(const Expr *Value, const Stmt *Loop,
                           const SourceManager &SM, unsigned Locals) {
  const Expr *Root = pieceRoot(Value);
  if (!Root)
    return false;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Root)) {
    const auto *Var = cast<VarDecl>(Ref->getDecl());
    if (isElementOfLoopInvariant(Var, Loop, SM, Locals))
      return true;
    if (isDeclaredWithin(Var, Loop, SM))
      return holdsOnlyPiecesOfLoopInvariants(Var, Loop, SM, Locals);
    return !takesValuesIn(Var, Loop);
  }
  const auto *Field = cast<FieldDecl>(cast<MemberExpr>(Root)->getMemberDecl());
  return !takesValuesIn(Field, Loop) && !callsNonConstOwnMethod(Loop);
}
} // namespace

std::string Lifetime::name() const {
  return Target ? Target->getNameAsString() : std::string("*this");
}

/// The class of the method whose object \p Target is (`this`, `*this`, or an
/// element of it), when that class is the user's and holds tensors itself
/// (derived from a container of tensors); nullptr otherwise.
static const CXXRecordDecl *selfContainer(const Expr *Target) {
  const Expr *Base = stripWrappers(containerOf(Target))->IgnoreParenImpCasts();
  if (const auto *Deref = dyn_cast<UnaryOperator>(Base);
      Deref && Deref->getOpcode() == UO_Deref)
    Base = Deref->getSubExpr()->IgnoreParenImpCasts();
  const auto *This = dyn_cast<CXXThisExpr>(Base);
  if (!This)
    return nullptr;
  QualType Object = This->getType()->getPointeeType();
  if (Object.isNull() || !holdsTensors(Object) || isTensorType(Object))
    return nullptr;
  // The user's class derived from a container, not the container's own
  // methods (std::vector<torch::Tensor>::push_back calling emplace_back).
  const CXXRecordDecl *RD = Object->getAsCXXRecordDecl();
  if (!RD || RD->isInStdNamespace() ||
      RD->getASTContext().getSourceManager().isInSystemHeader(RD->getLocation()))
    return nullptr;
  return RD;
}

/// Whether \p Value is computed, by arithmetic with numbers, only from
/// parts (pieceRoot) of \p Target itself (`p[0][j] = p[0][j] * (1 - f) +
/// noise * f`): like an in-place operation that brings nothing in
/// (`mul_(0.5)`), the write changes elements of the graph the target holds
/// and takes in none from outside.
static bool computedOnlyFromItself(const Expr *Value, const ValueDecl *Target) {
  Value = stripWrappers(Value)->IgnoreParenImpCasts();
  if (!holdsTensorsOrFields(Value->getType()))
    return true;
  if (const Expr *Root = pieceRoot(Value)) {
    const auto *Ref = dyn_cast<DeclRefExpr>(Root);
    return (Ref ? Ref->getDecl() : cast<MemberExpr>(Root)->getMemberDecl()) ==
           Target;
  }
  const auto *Op = dyn_cast<CXXOperatorCallExpr>(Value);
  if (!Op || !llvm::is_contained({OO_Plus, OO_Minus, OO_Star, OO_Slash},
                                 Op->getOperator()))
    return false;
  return llvm::all_of(Op->arguments(), [&](const Expr *Arg) {
    return computedOnlyFromItself(Arg, Target);
  });
}

std::optional<Lifetime> outlivesIteration(const Expr *Target, const Stmt *At,
                                          ASTContext &Ctx,
                                          llvm::ArrayRef<const Expr *> Values) {
  bool ThroughThis = false;
  const ValueDecl *D = rootOf(Target, ThroughThis);
  if (!D) {
    // The object of the method: it outlives each call, as a member does.
    if (const CXXRecordDecl *Self = selfContainer(Target))
      return Lifetime{Lifetime::Call, nullptr, innermostLoop(At, Ctx), Self};
    return std::nullopt;
  }
  const Stmt *Loop = innermostLoop(At, Ctx);
  const auto *Var = dyn_cast<VarDecl>(D);
  if (isa<FieldDecl>(D) || (Var && !Var->hasLocalStorage())) {
    Lifetime L{Lifetime::Call, D, Loop};
    // Written through a field of its own: that field holds what is stored.
    ObjectPath Path = objectPath(containerOf(Target));
    if (Path.leaf() != D && isa_and_nonnull<FieldDecl>(Path.leaf()) &&
        llvm::is_contained(Path.Decls, D)) {
      L.Part = Path.leaf();
      L.PartPath = std::move(Path);
    }
    return L;
  }
  if (!Var)
    return std::nullopt;
  if (isa<ParmVarDecl>(Var)) {
    QualType T = Var->getType();
    if (isMutableReference(T) || isMutablePointer(T))
      return Lifetime{Lifetime::Call, D, Loop};
  }
  const SourceManager &SM = Ctx.getSourceManager();
  // A loop that hands out pieces of a graph made before it (the outputs
  // of one forward split into a vector), or only rewrites the target's own
  // elements from themselves and numbers, grows nothing: what counts is the
  // loop around it, if any.
  while (Loop && !Values.empty() &&
         llvm::all_of(Values, [&](const Expr *V) {
           return isPartOfLoopInvariant(V, Loop, SM, /*Locals=*/4) ||
                  computedOnlyFromItself(V, Var);
         }))
    Loop = innermostLoop(Loop, Ctx);
  if (!Loop)
    return std::nullopt;
  // Declared outside the loop: its declaration is not in the loop.
  if (isDeclaredWithin(Var, Loop, SM))
    return std::nullopt;
  // A local or by-value parameter of a lambda that the loop calls is made
  // afresh by every call.
  if (const auto *Owner =
          dyn_cast_or_null<FunctionDecl>(Var->getParentFunctionOrMethod()))
    if (const Stmt *OwnerBody = Owner->getBody())
      if (!isDeclaredWithin(Var, Loop, SM) &&
          !(SM.isBeforeInTranslationUnit(OwnerBody->getBeginLoc(),
                                         Loop->getBeginLoc()) &&
            SM.isBeforeInTranslationUnit(Loop->getEndLoc(),
                                         OwnerBody->getEndLoc())))
        return std::nullopt;
  return Lifetime{Lifetime::Loop, D, Loop};
}

namespace {
/// The resets of one target: `t.clear()`, `t.reset()`, `t = fresh`,
/// `t = t.detach()`, unless the new value is computed from the old one with
/// its history (`t = t + x` keeps accumulating).
class ResetFinder : public StmtWalk {
public:
  explicit ResetFinder(const ValueDecl *Target)
      : StmtWalk(Options{/*TemplateInstantiations=*/false,
                         /*LambdaBodies=*/true}),
        Target(Target) {}
  llvm::SmallVector<const Stmt *, 4> Resets;
  bool enterDecl(Decl *D) override {
    // The assignments of the function around, to tell a reset from a
    // write of what is computed from the target's own value
    // (`auto out = rnn(x, state_); state_ = std::get<1>(out);`).
    const auto *Function = dyn_cast<FunctionDecl>(D);
    if (!Function || !Function->hasBody() || Sources)
      return true;
    Own.emplace(Function->getBody());
    Sources = &*Own;
    OwnFor = D;
    return true;
  }
  void leaveDecl(Decl *D) override {
    if (D != OwnFor)
      return;
    finishFunction();
    Sources = nullptr;
    Own.reset();
    OwnFor = nullptr;
  }
  bool visit(Stmt *S) override {
    if (isa<CallExpr, BinaryOperator>(S))
      note(S);
    return true;
  }

private:
  /// The number of elements of a std::tuple or std::pair type; 0 otherwise.
  static size_t tupleSize(QualType T) {
    const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
        T.getNonReferenceType()->getAsCXXRecordDecl());
    if (!Spec || !Spec->isInStdNamespace() || !Spec->getIdentifier())
      return 0;
    const TemplateArgumentList &Args = Spec->getTemplateArgs();
    if (Spec->getName() == "pair")
      return 2;
    if (Spec->getName() == "tuple" && Args.size() == 1 &&
        Args[0].getKind() == TemplateArgument::Pack)
      return Args[0].pack_size();
    return 0;
  }
  /// Whether \p V holds none of the history the target held: a value cut
  /// from the graph (`h.detach()`), or one not computed from the target.
  bool dropsOldHistory(const Expr *V) const {
    return cutsHistory(V, Target->getASTContext()) ||
           !(mentions(V, Target) ||
             (Sources && Sources->sourcesOf(V).contains(Target)));
  }
  /// `std::get<N>(Target) = value that drops the old history`: N.
  std::optional<unsigned> cutElement(const Stmt *S) const {
    const auto *Op = dyn_cast<CXXOperatorCallExpr>(S);
    if (!Op || Op->getOperator() != OO_Equal || Op->getNumArgs() != 2)
      return std::nullopt;
    const auto *Get = dyn_cast<CallExpr>(stripWrappers(Op->getArg(0)));
    if (!Get || Get->getNumArgs() != 1 ||
        referencedDecl(Get->getArg(0)) != Target)
      return std::nullopt;
    // The value's sources last: the costly question, asked only of writes
    // into an element of the target.
    std::optional<unsigned> Index = stdGetIndex(Get->getDirectCallee());
    if (!Index || !dropsOldHistory(Op->getArg(1)))
      return std::nullopt;
    return Index;
  }
  void note(const Stmt *S) {
    if (auto Element = cutElement(S)) {
      CutElements.insert(*Element);
      LastCut = S;
      return;
    }
    auto Def = definitionAt(S, Target);
    if (!Def || Def->Kind != Definition::Replace)
      return;
    // A fresh value, or the old one cut from its graph (`h = h.detach()`):
    // the history it held is gone either way.
    if (llvm::all_of(Def->Values,
                     [&](const Expr *V) { return dropsOldHistory(V); }))
      Resets.push_back(S);
  }

public:
  /// Every element of a tuple target replaced in the function just walked
  /// (`std::get<0>(hidden) = std::get<0>(hidden).detach();` for each): what
  /// the target held is gone, as with a fresh value.
  void finishFunction() {
    if (!CutElements.empty() &&
        CutElements.size() == tupleSize(Target->getType()))
      Resets.push_back(LastCut);
    CutElements.clear();
  }

private:
  const ValueDecl *Target;
  const TensorSources *Sources = nullptr;
  /// The sources of the function being walked, and that function.
  std::optional<TensorSources> Own;
  const Decl *OwnFor = nullptr;
  /// The tuple elements of the target that the function replaces, and the
  /// last such write.
  std::set<unsigned> CutElements;
  const Stmt *LastCut = nullptr;
};

/// The object a reset found by ResetFinder acts on: that of `v.clear()`,
/// the left side of `v = fresh`.
static const Expr *resetObject(const Stmt *Reset) {
  if (const auto *Call = dyn_cast<CXXMemberCallExpr>(Reset))
    return Call->getImplicitObjectArgument();
  if (const auto *BO = dyn_cast<BinaryOperator>(Reset))
    return BO->getLHS();
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Reset);
      Op && Op->getNumArgs() == 2)
    return Op->getArg(0);
  return nullptr;
}

llvm::SmallVector<const Stmt *, 4> resetsIn(const Stmt *S,
                                            const ValueDecl *Target) {
  ResetFinder Finder(Target);
  if (S)
    Finder.walk(S);
  Finder.finishFunction();
  return Finder.Resets;
}

/// The assignments that decide what \p Backward's roots are made of: those
/// of the lambda it is written in (which sees the function's variables
/// too), else \p FunctionSources.
TensorSources lambdaSources(const CallExpr *Backward,
                            const TensorSources &FunctionSources,
                            ASTContext &Ctx) {
  const Stmt *Own = enclosingFunctionBody(Backward, Ctx);
  return Own ? TensorSources(Own) : FunctionSources;
}

/// A backward pass after the loop, in the same function, walks the graph,
/// or the target is handed after the loop to a call that differentiates it
/// (a training step of the unit, the closures a std::function runs: D, with
/// only bodies in view counting); across
/// an enclosing loop, the target starts afresh each time (unrolled BPTT,
/// micro-batches or per-task losses summed and backpropagated once).
bool consumedAfterLoop(const Lifetime &L, ASTContext &Ctx,
                       HistoryAnalysis &History) {
  const SourceManager &SM = Ctx.getSourceManager();
  const Stmt *Body = enclosingFunctionBody(L.LoopStmt, Ctx);
  if (!Body)
    return false;
  TensorSources Sources(Body);
  auto After = [&](const Stmt *S) {
    // Where it runs: a backward pass in a lambda runs where it is called.
    return llvm::any_of(runsAt(S, Ctx), [&](const Stmt *At) {
      return SM.isBeforeInTranslationUnit(L.LoopStmt->getEndLoc(),
                                          At->getBeginLoc());
    });
  };
  // Consumed once per run of the enclosing loop, if there is one.
  auto Afresh = [&] {
    const Stmt *Outer = innermostLoop(L.LoopStmt, Ctx);
    if (!Outer || isDeclaredWithin(L.Target, Outer, SM))
      return true;
    // A local of a lambda or function that the outer loop calls: each call
    // makes it afresh.
    if (const auto *Var = dyn_cast<VarDecl>(L.Target);
        Var && Var->hasLocalStorage() && !isa<ParmVarDecl>(Var))
      if (const auto *Owner =
              dyn_cast_or_null<FunctionDecl>(Var->getParentFunctionOrMethod());
          Owner && Owner->getBody() && !contains(Owner->getBody(), Outer))
        return true;
    for (const Stmt *Reset : resetsIn(Body, L.Target))
      for (const Stmt *At : runsAt(Reset, Ctx))
        if (contains(loopBody(Outer), At))
          return true;
    return false;
  };
  for (const CallExpr *Backward : backwardPassesIn(Body))
    if (After(Backward) &&
        walksHistoryOf(Backward, L.Target, lambdaSources(Backward, Sources, Ctx),
                       Ctx, History.flowAt(Backward)) &&
        Afresh())
      return true;
  const CallSites *Callers = History.callers();
  if (!Callers)
    return false;
  // Handed on, itself or a value computed from it (`loss = value_loss +
  // policy_loss; optimiser_.step(loss);`), to a function that may
  // differentiate it: the user's optimiser wrapper, whose backward pass is
  // in its own body.
  class HandOffs : public StmtWalk {
  public:
    explicit HandOffs(const ValueDecl *Target) : Target(Target) {}
    bool visit(Stmt *S) override {
      if (const auto *Call = dyn_cast<CallExpr>(S))
        for (unsigned I = 0, N = Call->getNumArgs(); I != N; ++I)
          if (referencedDecl(Call->getArg(I)) == Target ||
              isTensorType(Call->getArg(I)->getType()))
            Found.push_back({Call, I});
      return true;
    }
    const ValueDecl *Target;
    llvm::SmallVector<std::pair<const CallExpr *, unsigned>, 4> Found;
  } Calls(L.Target);
  Calls.walk(Body);
  auto HandsOn = [&](const CallExpr *Call, unsigned Arg) {
    const Expr *Value = Call->getArg(Arg);
    return referencedDecl(Value) == L.Target ||
           Sources.historySourcesOf(Value, Ctx).contains(L.Target);
  };
  for (auto [Call, Arg] : Calls.Found)
    if (After(Call) && HandsOn(Call, Arg) &&
        argumentMayBeDifferentiated(Call, Arg, Ctx, *Callers,
                                    /*OpaqueCallsMay=*/false, &History) &&
        Afresh())
      return true;
  return false;
}

/// Gradient accumulation: in the same loop, a backward pass walks the
/// window and, after it in the same block, the window is reset (every k
/// micro-batches, under a condition).
bool consumedAndResetInLoop(const Lifetime &L, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  const Stmt *Body = loopBody(L.LoopStmt);
  const Stmt *FunctionBody = enclosingFunctionBody(L.LoopStmt, Ctx);
  if (!Body || !FunctionBody)
    return false;
  TensorSources Sources(FunctionBody);
  auto Resets = resetsIn(Body, L.Target);
  for (const CallExpr *Backward : backwardPassesIn(Body)) {
    if (!walksHistoryOf(Backward, L.Target, Sources, Ctx))
      continue;
    const CompoundStmt *Block = nearestAncestor<CompoundStmt>(*Backward, Ctx);
    for (const Stmt *Reset : Resets)
      if (contains(Block, Reset) &&
          SM.isBeforeInTranslationUnit(Backward->getEndLoc(),
                                       Reset->getBeginLoc()))
        return true;
  }
  return false;
}

/// Whether \p Loop runs its model as evaluation code: a forward pass inside
/// it finds its module in evaluation mode (ModuleMode: `model->eval()` on
/// every path before it in \p Function, or a member module its class only
/// ever sets to evaluation mode), and nothing in the unit differentiates
/// what it computes (D, as the evaluation check asks it).
bool runsAsEvaluationCode(const Stmt *Loop, const FunctionDecl *Function,
                          ASTContext &Ctx, HistoryAnalysis &History) {
  const FunctionFlow *Flow = History.flowOf(Function);
  return llvm::any_of(forwardCallsIn(Loop, History.options().names()), [&](const CallExpr *Forward) {
    return evalModeAt(Forward, Forward, Flow, Ctx, History.callers(),
                      [&](const FunctionDecl *FD) { return History.flowOf(FD); },
                      History.options().names()) &&
           History.callers() &&
           !mayBeDifferentiated(Forward, Ctx, *History.callers(),
                                /*OpaqueCallsMay=*/false, &History);
  });
}

/// Whether \p Function is called, and no call of it may differentiate what
/// it returns (D, with a function whose body is not in the unit taken to
/// differentiate what it is handed): the callers read only numbers from it.
/// As for a prediction function, the calls in view decide: the unit's, and
/// those of other units that the summaries describe. A function that none
/// of them calls is left to callers elsewhere, and so is a module's
/// forward, whose calls are forward passes, unless \p ForwardToo (the
/// question is then about the module's own state). \p Witness receives
/// the unit's first call, or else where one of another unit is.
bool callersDiscardResult(const FunctionDecl *Function, ASTContext &Ctx,
                          HistoryAnalysis &History, DiscardedResult &Witness,
                          bool ForwardToo = false) {
  const CallSites *Callers = History.callers();
  if (!Callers || !Function)
    return false;
  // A module's forward: its calls are forward passes, which the evaluation
  // check judges where they run.
  if (const auto *Method = dyn_cast<CXXMethodDecl>(Function);
      !ForwardToo && Method && Method->getIdentifier() &&
      History.options().names().namesForward(Method->getName()) &&
      isModuleClass(Method->getParent()))
    return false;
  auto Sites = Callers->of(Function);
  if (!Sites)
    return false;
  const FunctionSummaries *Summaries = History.options().Summaries.get();
  const UsedSummary *Elsewhere =
      Summaries && Callers->recordsOnlyElsewhere(Function)
          ? Summaries->used(Function)
          : nullptr;
  if (Elsewhere ? Elsewhere->Differentiated : Sites->empty())
    return false;
  if (llvm::any_of(*Sites, [&](const CallExpr *Site) {
        return callerMayDifferentiate(Site, Ctx, *Callers,
                                      /*OpaqueCallsMay=*/true, &History);
      }))
    return false;
  if (!Sites->empty())
    Witness.Site = Sites->front();
  else
    Witness.Elsewhere = Elsewhere->At;
  return true;
}

/// The values that the store \p At writes: the arguments of
/// `v.push_back(t)`, `buf.index_put_(i, t)`, the right side of `v[i] = t`.
llvm::SmallVector<const Expr *, 2> storedOperands(const Stmt *At) {
  llvm::SmallVector<const Expr *, 2> Out;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(At)) {
    for (unsigned I = 1, N = Op->getNumArgs(); I < N; ++I)
      Out.push_back(Op->getArg(I));
  } else if (const auto *Call = dyn_cast<CallExpr>(At)) {
    for (const Expr *Arg : Call->arguments())
      if (!isa<CXXDefaultArgExpr>(Arg))
        Out.push_back(Arg);
  } else if (const auto *Assign = dyn_cast<BinaryOperator>(At)) {
    Out.push_back(Assign->getRHS());
  }
  return Out;
}

/// Whether what \p At stores carries a graph that its function makes (a
/// forward pass, a gradient taken with create_graph), not only one that its
/// parameters bring: H asked as if every parameter carried nothing. Slices
/// of a tensor the caller passed keep the caller's graph, which the caller
/// holds anyway.
bool storesGraphMadeInCall(const Stmt *At, HistoryAnalysis &History) {
  HistoryOptions Own = History.options();
  Own.UnresolvedParameters = Carries::none();
  HistoryAnalysis Fresh(History.context(), /*Callers=*/nullptr, Own);
  return llvm::any_of(storedOperands(At), [&](const Expr *Value) {
    return Fresh.history(Value).mayHoldGraph();
  });
}

/// Whether what the loop of \p Function stores at \p At for its result is
/// kept for nothing: the callers read only numbers from the result, and the
/// stored value carries a graph made in the call (resultKeptForNothing).
bool gatheredForNothing(const FunctionDecl *Function, const Stmt *At,
                        ASTContext &Ctx, HistoryAnalysis &History,
                        DiscardedResult &Witness) {
  return callersDiscardResult(Function, Ctx, History, Witness) &&
         storesGraphMadeInCall(At, History);
}

/// Whether \p Function leaves what it builds (a returned result, what it
/// stores in a by-reference parameter) for its caller to judge: it trains
/// nothing itself (no backward pass, no optimizer step; gradients taken with
/// create_graph are part of the result), and \p Loop, the loop that builds
/// it if any, does not run its model as evaluation code (then the function
/// is evaluation code, and the graph it gathers is kept for nothing).
bool leavesResultToCaller(const FunctionDecl *Function, const Stmt *Loop,
                          ASTContext &Ctx, HistoryAnalysis &History) {
  const Stmt *Body = Function ? Function->getBody() : nullptr;
  if (!Body || trainsBesidesDifferentiableGradients(Body, Ctx))
    return false;
  return !(Loop && runsAsEvaluationCode(Loop, Function, Ctx, History));
}

/// The values assigned to fields of the local object \p Object in \p Body
/// (`out.logprobs = torch::stack(kept);`): what a returned struct holds.
llvm::SmallVector<const Expr *, 4> fieldValuesOf(const ValueDecl *Object,
                                                 const Stmt *Body) {
  class FieldStores : public StmtWalk {
  public:
    explicit FieldStores(const ValueDecl *Object) : Object(Object) {}
    llvm::SmallVector<const Expr *, 4> Values;
    bool visit(Stmt *S) override {
      if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
        if (BO->getOpcode() == BO_Assign)
          note(BO->getLHS(), BO->getRHS());
      } else if (const auto *Call = dyn_cast<CXXOperatorCallExpr>(S)) {
        if (Call->getOperator() == OO_Equal && Call->getNumArgs() == 2)
          note(Call->getArg(0), Call->getArg(1));
      }
      return true;
    }

  private:
    void note(const Expr *LHS, const Expr *RHS) {
      const auto *Member = dyn_cast<MemberExpr>(stripWrappers(LHS));
      if (Member && !Member->isArrow() &&
          referencedDecl(stripWrappers(Member->getBase())) == Object)
        Values.push_back(RHS);
    }
    const ValueDecl *Object;
  } Stores(Object);
  if (Object && Body)
    Stores.walk(Body);
  return Stores.Values;
}

/// The variable that \p E reads one element of (`v[k]`, `v.at(k)`,
/// `v.front()`, `v.back()`), or null.
const ValueDecl *pickedFrom(const Expr *E) {
  const Expr *Base = nullptr;
  if (const auto *Sub = dyn_cast<ArraySubscriptExpr>(E))
    Base = Sub->getBase();
  else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E)) {
    if (Op->getOperator() == OO_Subscript && Op->getNumArgs() == 2)
      Base = Op->getArg(0);
  } else if (const auto *Call = dyn_cast<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *Method = Call->getMethodDecl();
    if (Method && Method->getIdentifier() &&
        llvm::is_contained({"at", "front", "back"}, Method->getName()))
      Base = Call->getImplicitObjectArgument();
  }
  return Base ? referencedDecl(stripWrappers(Base)) : nullptr;
}

/// How what \p Target holds reaches the values returned from \p Body,
/// following the values stored into the function's variables: as a whole
/// (`return v;`, `torch::stack(v)`, a struct field assigned from it, an
/// element read in a loop over it), or only as elements picked outside any
/// loop (`return v[best];`), also through another container whose elements
/// are computed from its elements one by one (`ratios[i] = dists[i] / 2;
/// return ratios[best];`).
struct ResultReach {
  bool Whole = false;
  llvm::SmallVector<const Expr *, 2> Picks;
  bool reaches() const { return Whole || !Picks.empty(); }
};

ResultReach reachOfResult(const ValueDecl *Target, const Stmt *Body,
                          const TensorSources &Sources, ASTContext &Ctx) {
  class Walk : public StmtWalk {
  public:
    Walk(const ValueDecl *Target, const Stmt *Body, const TensorSources &Sources,
         ASTContext &Ctx)
        : StmtWalk(Options{/*TemplateInstantiations=*/false,
                           /*LambdaBodies=*/true, /*EnterInOrder=*/true}),
          Target(Target), Body(Body), Sources(Sources), Ctx(Ctx) {}
    ResultReach Reach;
    /// What to follow; with the pick it was reached through when it is one
    /// element's value of another container.
    llvm::SmallVector<std::pair<const Expr *, const Expr *>, 8> Work;
    const Expr *Through = nullptr;

    /// A pick of an element is followed here, not walked into.
    bool enter(Stmt *S) override {
      const auto *E = dyn_cast<Expr>(S);
      // Numbers read from the target (`md.argmax().item<int64_t>()` pushed
      // into the indices the result is selected with) take no graph along.
      if (E && cutsHistory(E, Ctx))
        return false;
      const ValueDecl *Picked = E ? pickedFrom(E) : nullptr;
      if (!Picked)
        return true;
      const Stmt *Loop = innermostLoop(E, Ctx);
      bool InLoop = Loop && contains(Body, Loop);
      if (Picked == Target) {
        if (Through)
          Reach.Picks.push_back(Through); // one element of the other's
        else if (InLoop)
          Reach.Whole = true; // every element, one per iteration
        else
          Reach.Picks.push_back(E);
        return false;
      }
      // One element of another container: follow its element values.
      if (!InLoop && !Through && isa<VarDecl>(Picked) &&
          cast<VarDecl>(Picked)->hasLocalStorage() &&
          PickedSeen.insert(Picked).second) {
        for (const Expr *Value : Sources.storedValues(Picked))
          Work.push_back({Value, E});
        return false;
      }
      return true;
    }
    bool visit(Stmt *S) override {
      if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
        return note(Ref->getDecl());
      if (const auto *Member = dyn_cast<MemberExpr>(S))
        return note(Member->getMemberDecl());
      return true;
    }

  private:
    bool note(const ValueDecl *D) {
      if (D == Target) {
        Reach.Whole = true;
        return true;
      }
      if (!isa<VarDecl, FieldDecl, BindingDecl>(D) ||
          holdsOnlyNumbers(D->getType()) || !Seen.insert(D).second)
        return true;
      if (const auto *Binding = dyn_cast<BindingDecl>(D)) {
        if (const ValueDecl *Whole = Binding->getDecomposedDecl())
          if (const Expr *Init = cast<VarDecl>(Whole)->getInit())
            Work.push_back({Init, nullptr});
        return true;
      }
      for (const Expr *Value : Sources.storedValues(D))
        Work.push_back({Value, nullptr});
      // A struct whose fields are assigned from it (`out.logprobs =
      // torch::stack(kept); return out;`).
      for (const Expr *Value : fieldValuesOf(D, Body))
        Work.push_back({Value, nullptr});
      return true;
    }
    const ValueDecl *Target;
    const Stmt *Body;
    const TensorSources &Sources;
    ASTContext &Ctx;
    llvm::SmallPtrSet<const ValueDecl *, 16> Seen, PickedSeen;
  } W(Target, Body, Sources, Ctx);
  // A value cut from the graph is left out where the walk enters it.
  for (const Expr *Value : returnedValues(Body))
    W.Work.push_back({Value, nullptr});
  while (!W.Work.empty() && !W.Reach.Whole) {
    auto [Value, Through] = W.Work.pop_back_val();
    W.Through = Through;
    W.walk(Value);
  }
  return W.Reach;
}

/// Whether what \p At stores is computed from a state that the loop of \p L
/// carries from one iteration to the next (`h = cell(x, h);
/// hiddens.push_back(h);`): the stored elements then share one graph, the
/// last one's holding the others'.
bool storesCarriedState(const Lifetime &L, const Stmt *At,
                        const TensorSources &Sources, const SourceManager &SM) {
  const auto *Store = dyn_cast<Expr>(At);
  if (!Store || !L.LoopStmt)
    return true;
  for (const ValueDecl *D : Sources.sourcesOf(Store)) {
    if (D == L.Target || isDeclaredWithin(D, L.LoopStmt, SM))
      continue;
    for (const Expr *Value : Sources.storedValues(D))
      if (contains(L.LoopStmt, Value) && Sources.sourcesOf(Value).contains(D))
        return true;
  }
  return false;
}

/// What \p L's loop gathers, as its function's returned values take it:
/// not at all; as a whole (or elements that share one graph); or only one
/// element picked from it.
struct LoopResult {
  enum { None, Whole, PickedOnly } Use = None;
  const Expr *Pick = nullptr;
};

/// The key of a pick (`v[k]`, `m.at(k)`), as written; empty for `front()`
/// and `back()`, which name their element themselves.
std::string pickKey(const Expr *Pick, ASTContext &Ctx) {
  const Expr *Key = nullptr;
  Pick = stripWrappers(Pick);
  if (const auto *Sub = dyn_cast<ArraySubscriptExpr>(Pick))
    Key = Sub->getIdx();
  else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Pick);
           Op && Op->getNumArgs() == 2)
    Key = Op->getArg(1);
  else if (const auto *Call = dyn_cast<CXXMemberCallExpr>(Pick)) {
    if (Call->getNumArgs() == 1)
      Key = Call->getArg(0);
    else if (const CXXMethodDecl *MD = Call->getMethodDecl())
      return MD->getNameAsString();
  }
  if (!Key)
    return std::string();
  return Lexer::getSourceText(
             CharSourceRange::getTokenRange(Key->getSourceRange()),
             Ctx.getSourceManager(), Ctx.getLangOpts())
      .str();
}

/// Whether every one of \p Picks takes the element at the same key.
bool samePick(llvm::ArrayRef<const Expr *> Picks, ASTContext &Ctx) {
  std::string First = pickKey(Picks.front(), Ctx);
  return llvm::all_of(Picks.drop_front(), [&](const Expr *Pick) {
    return pickKey(Pick, Ctx) == First;
  });
}

LoopResult loopResult(const Lifetime &L, const Stmt *At, ASTContext &Ctx) {
  LoopResult R;
  if (!L.Target || !L.LoopStmt)
    return R;
  const FunctionDecl *Function = enclosingFunction(L.LoopStmt, Ctx);
  const Stmt *Body = Function ? Function->getBody() : nullptr;
  if (!Body || !holdsTensorsOrFields(Function->getReturnType()))
    return R;
  TensorSources Sources(Body);
  ResultReach Reach = reachOfResult(L.Target, Body, Sources, Ctx);
  if (!Reach.reaches())
    return R;
  if (Reach.Whole || storesCarriedState(L, At, Sources, Ctx.getSourceManager())) {
    R.Use = LoopResult::Whole;
    return R;
  }
  // Elements at different keys (`losses["out"] + 0.5 * losses["aux"]`)
  // are more than one trial's: what reaches the result is what the loop
  // made, not the best of it.
  if (!samePick(Reach.Picks, Ctx)) {
    R.Use = LoopResult::Whole;
    return R;
  }
  R.Use = LoopResult::PickedOnly;
  R.Pick = Reach.Picks.front();
  return R;
}

/// A loop that builds its function's result: the function trains nothing
/// itself (no backward pass, no optimizer step; gradients taken with
/// create_graph are part of the result, as a Hessian's are) and returns, with its
/// history, what the loop gathered (an unrolled decoder's forward, a
/// sample()). Its caller decides what to do with the graph. Not when the
/// result takes only one of the gathered elements (the best of several
/// trials) and the elements do not share a graph: the others are kept for
/// nothing until the function returns.
bool buildsFunctionResult(const Lifetime &L, const Stmt *At, ASTContext &Ctx,
                          HistoryAnalysis &History) {
  if (loopResult(L, At, Ctx).Use != LoopResult::Whole)
    return false;
  // The caller decides, as for a module's own forward: what it does with
  // the result is judged where it does it; unless the callers in view only
  // read numbers from it (resultKeptForNothing).
  const FunctionDecl *Function = enclosingFunction(L.LoopStmt, Ctx);
  DiscardedResult Witness;
  return leavesResultToCaller(Function, L.LoopStmt, Ctx, History) &&
         !gatheredForNothing(Function, At, Ctx, History, Witness);
}

/// Whether \p Loop runs over a module's own parameters, buffers or
/// submodules (`for (auto &p : model->parameters())`, also through a local
/// that holds such a list): the value it builds (a regulariser, a norm) has
/// one term per parameter, bounded by the model's size, not by time. Where
/// that value goes is judged where it goes.
bool iteratesOverModel(const Stmt *Loop) {
  const auto *Range = dyn_cast_or_null<CXXForRangeStmt>(Loop);
  if (!Range || !Range->getRangeInit())
    return false;
  const Expr *Init = stripWrappers(Range->getRangeInit());
  for (unsigned Depth = 0; Init && Depth < 3; ++Depth) {
    if (const auto *Call = dyn_cast<CXXMemberCallExpr>(Init)) {
      const CXXMethodDecl *MD = Call->getMethodDecl();
      return MD && MD->getIdentifier() &&
             isModuleClass(recordOf(Call->getImplicitObjectArgument()->getType(),
                                    /*ThroughPointer=*/true)) &&
             llvm::is_contained({"parameters", "named_parameters", "buffers",
                                 "named_buffers", "modules", "named_modules",
                                 "children", "named_children"},
                                MD->getName());
    }
    // A local that holds such a list (`auto params = model->parameters();`).
    const auto *Var = dyn_cast_or_null<VarDecl>(referencedDecl(Init));
    if (!Var || !Var->hasLocalStorage() || !Var->getInit())
      return false;
    Init = stripWrappers(Var->getInit());
  }
  return false;
}

/// The tensor whose size bounds \p E: `t.size(0)`, `t.sizes()[0]`,
/// `t.numel()`, `t.size(0) - 1`, through casts; or the container of tensors
/// (`preds.size()` of a `std::vector<torch::Tensor>`, the outputs of one
/// forward per scale), also through a local initialised with the
/// container's size that \p Loop does not write (`size_t scales =
/// preds.size();`). Null for anything else.
static const VarDecl *sizedTensor(const Expr *E, const Stmt *Loop) {
  bool ThroughCount = false;
  for (unsigned Depth = 0; E && Depth < 6; ++Depth) {
    E = stripWrappers(E)->IgnoreParenImpCasts();
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      const auto *Count = dyn_cast<VarDecl>(Ref->getDecl());
      if (!Count || !Count->hasLocalStorage() || isa<ParmVarDecl>(Count) ||
          !Count->getInit() || !Count->getType()->isIntegerType() ||
          writesVariable(Loop, Count, /*ThroughReferences=*/true))
        return nullptr;
      E = Count->getInit();
      ThroughCount = true;
      continue;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E);
        BO && (BO->getOpcode() == BO_Sub || BO->getOpcode() == BO_Add)) {
      E = BO->getLHS();
      continue;
    }
    if (const auto *Subscript = dyn_cast<CXXOperatorCallExpr>(E);
        Subscript && Subscript->getOperator() == OO_Subscript) {
      E = Subscript->getArg(0);
      continue;
    }
    const auto *Call = dyn_cast<CXXMemberCallExpr>(E);
    const CXXMethodDecl *MD = Call ? Call->getMethodDecl() : nullptr;
    if (!MD || !MD->getIdentifier() || !Call->getImplicitObjectArgument())
      return nullptr;
    const Expr *Object =
        stripWrappers(Call->getImplicitObjectArgument())->IgnoreParenImpCasts();
    llvm::StringRef Name = MD->getName();
    // t.sizes().at(0) on an IntArrayRef.
    if (Name == "at") {
      E = Object;
      continue;
    }
    if (Name != "size" && Name != "sizes" && Name != "numel")
      return nullptr;
    const auto *Ref = dyn_cast<DeclRefExpr>(Object);
    const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    // (A count of a tensor's rows kept in a local is no such bound: a
    // chunked distance computation walks the rows of its features.)
    return Var && ((isTensorType(Var->getType()) && !ThroughCount) ||
                   (Name == "size" && !isTensorType(Var->getType()) &&
                    holdsTensors(Var->getType())))
               ? Var
               : nullptr;
  }
  return nullptr;
}

/// The integer counter a counted loop declares (`i` of `for (size_t i = 0;
/// ...)`), if it declares one.
static const VarDecl *loopCounter(const ForStmt *For) {
  const auto *Init = For ? dyn_cast_or_null<DeclStmt>(For->getInit()) : nullptr;
  const auto *Counter =
      Init && Init->isSingleDecl() ? dyn_cast<VarDecl>(Init->getSingleDecl())
                                   : nullptr;
  return Counter && Counter->getType()->isIntegerType() ? Counter : nullptr;
}

/// Whether every write of \p Container in \p For's body puts a value into
/// the slot its counter indexes (`params[i] = other[i].to(device)` in
/// `for (size_t i = 0; i < params.size(); ++i)`): the loop fills the
/// container's slots, one value each, and never grows it.
static bool fillsItsSlots(const VarDecl *Container, const ForStmt *For) {
  const VarDecl *Counter = loopCounter(For);
  if (!Counter)
    return false;
  auto Definitions =
      definitionsIn(Container, For->getBody(), /*InLambdas=*/true);
  return !Definitions.empty() &&
         llvm::all_of(Definitions, [&](const Definition &Def) {
           const Expr *Target = nullptr;
           if (const auto *Op = dyn_cast<BinaryOperator>(Def.At);
               Op && Op->getOpcode() == BO_Assign)
             Target = Op->getLHS();
           else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Def.At);
                    Op && Op->getOperator() == OO_Equal &&
                    Op->getNumArgs() == 2)
             Target = Op->getArg(0);
           const auto *Slot = dyn_cast_or_null<CXXOperatorCallExpr>(
               Target ? stripWrappers(Target) : nullptr);
           if (!Slot || Slot->getOperator() != OO_Subscript ||
               Slot->getNumArgs() != 2)
             return false;
           const auto *Base = dyn_cast<DeclRefExpr>(stripWrappers(Slot->getArg(0)));
           const auto *Index = dyn_cast<DeclRefExpr>(stripWrappers(Slot->getArg(1)));
           return Base && Base->getDecl() == Container && Index &&
                  Index->getDecl() == Counter;
         });
}

/// Whether \p Loop walks the pieces of one tensor made before it, or the
/// tensors of one container: a counted loop bounded by that tensor's size
/// (`for (i = 0; i < preds.size(0); ++i)`) or the container's (`i <
/// scales` with `scales = preds.size()`), which the loop does not write,
/// (or writes only by filling its slots: fillsItsSlots),
/// and in which no model runs (no
/// forward pass, nor a call of a function in view that runs one). What it
/// stores per iteration comes from that one tensor's graph, one entry per
/// piece (the detections of each image of one batch): bounded by that
/// tensor, as a loop over a model's parameters is by the model.
static bool iteratesOverPiecesOfTensor(const Stmt *Loop,
                                       const NameGuesses &Names) {
  const Stmt *Body = nullptr;
  if (const auto *Range = dyn_cast_or_null<CXXForRangeStmt>(Loop)) {
    // A range-for over the tensors of one container (`for (auto &state :
    // previous_output.state)`) that the loop does not write.
    const Expr *Init = Range->getRangeInit();
    const ValueDecl *Root = Init ? referencedDecl(Init) : nullptr;
    if (!Root || isTensorType(Init->getType()) ||
        !holdsTensors(Init->getType().getNonReferenceType()) ||
        takesValuesIn(Root, Range->getBody()))
      return false;
    Body = Range->getBody();
  } else {
    const auto *For = dyn_cast_or_null<ForStmt>(Loop);
    // `for (;;)` has no condition.
    const auto *Cond =
        For && For->getCond()
            ? dyn_cast<BinaryOperator>(For->getCond()->IgnoreParenImpCasts())
            : nullptr;
    if (!Cond || !Cond->isComparisonOp() || Cond->isEqualityOp())
      return false;
    const VarDecl *Tensor = sizedTensor(Cond->getRHS(), For);
    if (!Tensor)
      Tensor = sizedTensor(Cond->getLHS(), For);
    // A container whose slots the loop fills by its counter is no less a
    // bound: it does not grow.
    if (!Tensor || (takesValuesIn(Tensor, For->getBody()) &&
                    (isTensorType(Tensor->getType()) ||
                     !fillsItsSlots(Tensor, For))))
      return false;
    Body = For->getBody();
  }
  if (!forwardCallsIn(Body, Names).empty())
    return false;
  // A function of the user's that the loop calls runs no model either.
  class ModelRuns : public StmtWalk {
  public:
    explicit ModelRuns(const NameGuesses &Names) : Names(Names) {}
    bool Found = false;
    bool visit(Stmt *S) override {
      const auto *Call = dyn_cast<CallExpr>(S);
      const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
      const FunctionDecl *Def = Callee ? Callee->getDefinition() : nullptr;
      if (Def && Def->hasBody() && !isLibraryFunction(Def) &&
          !forwardCallsIn(Def->getBody(), Names).empty())
        Found = true;
      // One out of view handed a model may run it
      // (`local_energy(model, x, psi)`).
      if (Callee && (!Def || !Def->hasBody()) && !isLibraryFunction(Callee))
        for (const Expr *Arg : Call->arguments())
          if (isModuleClass(recordOf(Arg->getType(), /*ThroughPointer=*/true)))
            Found = true;
      return !Found;
    }

  private:
    const NameGuesses &Names;
  } Runs(Names);
  Runs.walk(Body);
  return !Runs.Found;
}

/// Whether \p T is a standard container or an array of modules (an
/// ensemble's `std::vector<torch::jit::Module>`, a multi-agent system's
/// `std::vector<Actor>`, shared pointers to modules).
static bool holdsModules(QualType T) {
  T = T.getNonReferenceType().getCanonicalType();
  if (const ArrayType *Array = T->getAsArrayTypeUnsafe())
    return isModuleClass(objectClass(Array->getElementType()));
  const CXXRecordDecl *RD = recordOf(T, /*ThroughPointer=*/false);
  QualType Element = firstTypeArgument(RD);
  return RD && RD->isInStdNamespace() && !Element.isNull() &&
         isModuleClass(objectClass(Element));
}

/// Whether \p Loop runs each module of a collection in turn: a range-for
/// over a container of modules, or a counted loop whose body indexes one
/// with its counter (`models[i].forward(x)`, `actors_[i]->sample(obs[i])`).
/// What it gathers has one term per module (an ensemble's outputs, one
/// action per agent), bounded by the collection, not by time.
static bool iteratesOverModules(const Stmt *Loop) {
  if (const auto *Range = dyn_cast_or_null<CXXForRangeStmt>(Loop))
    return Range->getRangeInit() &&
           holdsModules(Range->getRangeInit()->getType());
  const auto *For = dyn_cast_or_null<ForStmt>(Loop);
  const VarDecl *Counter = loopCounter(For);
  if (!Counter)
    return false;
  class Indexing : public StmtWalk {
  public:
    explicit Indexing(const VarDecl *Counter) : Counter(Counter) {}
    bool Found = false;
    bool visit(Stmt *S) override {
      const Expr *Base = nullptr, *Index = nullptr;
      if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S);
          Op && Op->getOperator() == OO_Subscript && Op->getNumArgs() == 2) {
        Base = Op->getArg(0);
        Index = Op->getArg(1);
      } else if (const auto *Sub = dyn_cast<ArraySubscriptExpr>(S)) {
        Base = Sub->getBase();
        Index = Sub->getIdx();
      }
      if (Base && holdsModules(Base->IgnoreParenImpCasts()->getType()) &&
          mentions(Index, Counter))
        Found = true;
      return !Found;
    }

  private:
    const VarDecl *Counter;
  } Found(Counter);
  Found.walk(For->getBody());
  return Found.Found;
}

/// Whether \p L's target, a local that outlives the iterations of its loop,
/// also outlives those of a loop around that one (gathered across epochs).
static bool outlivesEnclosingLoop(const Lifetime &L, ASTContext &Ctx) {
  const Stmt *Outer = innermostLoop(L.LoopStmt, Ctx);
  const auto *Var = dyn_cast_or_null<VarDecl>(L.Target);
  return Outer && (!Var || !isDeclaredWithin(Var, Outer, Ctx.getSourceManager()));
}

/// Whether \p Block, a block that contains \p At, or a block inside it that
/// contains \p At, clears or replaces \p Target before \p At: a statement of
/// that block that comes before the one holding \p At, not under a
/// condition of its own. Every path to \p At through the block runs it.
static bool resetInBlockBefore(const CompoundStmt *Block, const Stmt *At,
                               const ValueDecl *Target) {
  for (const Stmt *S : Block->body()) {
    if (!contains(S, At)) {
      if (isa<Expr>(S) && !isa<LambdaExpr>(S) && !resetsIn(S, Target).empty())
        return true;
      continue;
    }
    // The statement that holds it: a block within, one for each branch of
    // an `if`, the body of a loop (a reset there comes after what the loop
    // stored in earlier runs, and before this store).
    // (A switch's cases are no path through its block.)
    if (S == At || isa<Expr, SwitchStmt>(S))
      return false;
    for (const Stmt *Child : S->children())
      if (const auto *Inner = dyn_cast_or_null<CompoundStmt>(Child);
          Inner && contains(Inner, At))
        return resetInBlockBefore(Inner, At, Target);
    return false;
  }
  return false;
}

/// Whether \p L's target is cleared or replaced, on every run of the block
/// that repeats \p At (the body of its loop, or of its function when no
/// loop does), before \p At: a statement of that block, or of a block
/// within it that holds \p At (the branch of an `if` that stores a sample
/// right after it makes the container afresh), not under a condition of
/// its own, that comes first. It then holds only what this iteration, or
/// this call, stores, as a variable declared in the loop would.
bool resetBeforeEachStore(const Lifetime &L, const Stmt *At, ASTContext &Ctx) {
  const Stmt *Region =
      L.LoopStmt ? loopBody(L.LoopStmt) : enclosingFunctionBody(At, Ctx);
  const auto *Block = dyn_cast_or_null<CompoundStmt>(Region);
  if (!Block || !contains(Block, At))
    return false;
  return resetInBlockBefore(Block, At, L.Target);
}

} // namespace

/// Whether \p Key has the same value on every run of \p Loop (or, with no
/// loop, on every call): it names only constants and, inside a loop,
/// variables that the loop neither declares nor writes; a call in it takes
/// arguments and only such ones.
static bool sameKeyEachRun(const Expr *Key, const Stmt *Loop,
                           const SourceManager &SM) {
  class Scan : public StmtWalk {
  public:
    Scan(const Stmt *Loop, const SourceManager &SM) : Loop(Loop), SM(SM) {}
    bool Same = true;
    bool visit(Stmt *S) override {
      if (auto *Ref = dyn_cast<DeclRefExpr>(S))
        return visitRef(Ref);
      if (isa<MemberExpr, CXXThisExpr>(S))
        return Same = false;
      if (auto *Call = dyn_cast<CallExpr>(S))
        return visitCall(Call);
      return true;
    }
    bool visitRef(DeclRefExpr *Ref) {
      const ValueDecl *D = Ref->getDecl();
      if (isa<EnumConstantDecl, FunctionDecl>(D))
        return true;
      const auto *Var = dyn_cast<VarDecl>(D);
      if (Var && Var->getType().isConstQualified() && Var->getInit() &&
          Var->getInit()->isConstantInitializer(Var->getASTContext(), false))
        return true;
      Same = Var && Loop && !isDeclaredWithin(Var, Loop, SM) &&
             !writtenIn(Var, Loop);
      return Same;
    }
    bool visitCall(CallExpr *Call) {
      // next_id(), rand(): a call with nothing to go on may differ.
      bool HasOperand = Call->getNumArgs() > 0 ||
                        (isa<CXXMemberCallExpr>(Call) &&
                         cast<CXXMemberCallExpr>(Call)->getImplicitObjectArgument());
      return Same = HasOperand;
    }
    const Stmt *Loop;
    const SourceManager &SM;
  } S(Loop, SM);
  S.walk(Key);
  return S.Same;
}

bool writesNewSlot(Lifetime &L, const Expr *Key, ASTContext &Ctx) {
  if (!Key || !L.Target)
    return true;
  const SourceManager &SM = Ctx.getSourceManager();
  if (L.Kind == Lifetime::Call)
    return !sameKeyEachRun(Key, nullptr, SM);
  const Stmt *Loop = L.LoopStmt;
  while (Loop && sameKeyEachRun(Key, Loop, SM)) {
    Loop = innermostLoop(Loop, Ctx);
    // A target declared inside that loop starts afresh there.
    if (Loop && isDeclaredWithin(L.Target, Loop, SM))
      return false;
  }
  if (!Loop)
    return false;
  L.LoopStmt = Loop;
  return true;
}

const Expr *pickedForResult(const Lifetime &L, const Stmt *At, ASTContext &Ctx) {
  if (L.Kind != Lifetime::Loop)
    return nullptr;
  LoopResult R = loopResult(L, At, Ctx);
  return R.Use == LoopResult::PickedOnly ? R.Pick : nullptr;
}

/// Whether \p L's target is a member of a module that the method of \p At
/// carries from one call to the next, and that another method resets.
static bool isResetModuleState(const Lifetime &L, const Stmt *At,
                               ASTContext &Ctx) {
  const auto *Field = dyn_cast_or_null<FieldDecl>(L.Target);
  const auto *Method =
      Field ? dyn_cast_or_null<CXXMethodDecl>(enclosingFunction(At, Ctx))
            : nullptr;
  return Method && Method->getParent() == Field->getParent() &&
         isModuleClass(Method->getParent()) && resetOf(L, At, Ctx);
}

std::optional<DiscardedResult> stateKeptForNothing(const Lifetime &L,
                                                   const Stmt *At,
                                                   ASTContext &Ctx,
                                                   HistoryAnalysis &History) {
  // A recurrent state stepped through a sequence, which the module can
  // reset: the caller runs the sequences and backpropagates them. Unless
  // the calls in view (the unit's, and those the summaries describe) all
  // read only numbers from what the method returns: then nothing walks the
  // chain, and it grows until the reset for nothing.
  if (!isResetModuleState(L, At, Ctx))
    return std::nullopt;
  const auto *Method = cast<CXXMethodDecl>(enclosingFunction(At, Ctx));
  DiscardedResult Witness;
  if (!holdsTensorsOrFields(Method->getReturnType()) ||
      !callersDiscardResult(Method, Ctx, History, Witness, /*ForwardToo=*/true))
    return std::nullopt;
  // Nor does any read of the state differentiate it: a member that a
  // forward fills and another method builds a loss from (per-level outputs
  // gathered for a loss, cleared before each forward) is walked there.
  const auto *Field = cast<FieldDecl>(L.Target);
  if (const CallSites *Callers = History.callers()) {
    if (memberReadUse(Field, Ctx, *Callers, History).Differentiated)
      return std::nullopt;
  } else if (const FunctionSummaries *Summaries =
                 History.options().Summaries.get()) {
    if (const UsedSummary *Read = Summaries->memberRead(Field);
        Read && Read->Differentiated)
      return std::nullopt;
  }
  return Witness;
}

std::optional<DiscardedResult> resultKeptForNothing(const Lifetime &L,
                                                   const Stmt *At,
                                                   ASTContext &Ctx,
                                                   HistoryAnalysis &History) {
  if (L.Kind != Lifetime::Loop || loopResult(L, At, Ctx).Use != LoopResult::Whole)
    return std::nullopt;
  const FunctionDecl *Function = enclosingFunction(L.LoopStmt, Ctx);
  DiscardedResult Witness;
  if (!gatheredForNothing(Function, At, Ctx, History, Witness))
    return std::nullopt;
  return Witness;
}

const CallExpr *keepingCallSite(const Lifetime &L, ASTContext &Ctx,
                                HistoryAnalysis &History, unsigned Depth) {
  const auto *Param = dyn_cast_or_null<ParmVarDecl>(L.Target);
  if (!Param || L.Kind != Lifetime::Call || Depth > 3 || !History.callers())
    return nullptr;
  const auto *Function = dyn_cast<FunctionDecl>(Param->getDeclContext());
  if (!Function)
    return nullptr;
  auto Sites = History.callers()->of(Function);
  if (!Sites)
    return nullptr;
  for (const CallExpr *Site : *Sites) {
    const Expr *Arg = argumentFor(Site, Param->getFunctionScopeIndex());
    if (!Arg)
      continue;
    Arg = stripWrappers(Arg)->IgnoreParenImpCasts();
    if (const auto *AddressOf = dyn_cast<UnaryOperator>(Arg))
      if (AddressOf->getOpcode() == UO_AddrOf)
        Arg = AddressOf->getSubExpr();
    std::optional<Lifetime> There = outlivesIteration(Arg, Site, Ctx);
    if (!There)
      continue;
    if (isa_and_nonnull<ParmVarDecl>(There->Target) &&
        There->Kind == Lifetime::Call) {
      if (keepingCallSite(*There, Ctx, History, Depth + 1))
        return Site;
      continue;
    }
    if (!isBoundedOnPurpose(*There, Site, Ctx, History))
      return Site;
  }
  return nullptr;
}

const Stmt *resetOf(const Lifetime &L, const Stmt *At, ASTContext &Ctx) {
  if (!L.Target)
    return nullptr;
  if (L.Kind == Lifetime::Loop) {
    // Inside the loop, or a loop around it: it runs again and again.
    for (const Stmt *Loop = L.LoopStmt; Loop; Loop = innermostLoop(Loop, Ctx)) {
      auto Resets = resetsIn(Loop, L.Target);
      if (!Resets.empty())
        return Resets.front();
    }
    return nullptr;
  }
  // Setting the first value in a constructor is no reset.
  for (Decl *D : userDecls(Ctx)) {
    ResetFinder Resets(L.Target);
    Resets.walkDecl(D);
    for (const Stmt *Reset : Resets.Resets)
      if (!isa_and_nonnull<CXXConstructorDecl>(enclosingFunction(Reset, Ctx)))
        return Reset;
  }
  return nullptr;
}

/// Whether a backward pass of the unit walks what an object of \p Class
/// holds: its root is computed from a variable or field of that class, or
/// it runs in one of the class's own methods.
static bool walksObjectOf(const CXXRecordDecl *Class, ASTContext &Ctx) {
  Class = Class->getCanonicalDecl();
  for (Decl *D : userDecls(Ctx))
    for (const CallExpr *Backward : backwardPassesInDecl(D)) {
      const auto *Method =
          dyn_cast_or_null<CXXMethodDecl>(enclosingFunction(Backward, Ctx));
      if (Method && Method->getParent()->getCanonicalDecl() == Class)
        return true;
      const Expr *Roots = backwardRoots(Backward);
      const Stmt *Body = enclosingFunctionBody(Backward, Ctx);
      if (!Roots || !Body)
        continue;
      for (const ValueDecl *Source : TensorSources(Body).sourcesOf(Roots)) {
        const CXXRecordDecl *RD = recordOf(Source->getType(), /*ThroughPointer=*/true);
        if (RD && RD->getCanonicalDecl() == Class)
          return true;
      }
    }
  return false;
}

bool isBoundedOnPurpose(const Lifetime &L, const Stmt *At, ASTContext &Ctx,
                        HistoryAnalysis &History) {
  // The object of the method, a container itself: bounded when what it
  // holds is backpropagated somewhere in the unit (a class that keeps an
  // episode's log-probabilities for its user's update).
  if (!L.Target)
    return L.Self && walksObjectOf(L.Self, Ctx);
  // Cleared before every store: it never holds more than one step's.
  if (resetBeforeEachStore(L, At, Ctx))
    return true;
  // The caller's object: the caller decides, unless a call site in view
  // hands one that outlives its own iteration, or the function trains.
  if (L.Kind == Lifetime::Call && isa<ParmVarDecl>(L.Target))
    return !keepingCallSite(L, Ctx, History) &&
           leavesResultToCaller(enclosingFunction(At, Ctx), L.LoopStmt, Ctx,
                                History);
  if (L.Kind == Lifetime::Loop)
    return iteratesOverModel(L.LoopStmt) ||
           ((iteratesOverPiecesOfTensor(L.LoopStmt,
                                        History.options().names()) ||
             iteratesOverModules(L.LoopStmt)) &&
            !outlivesEnclosingLoop(L, Ctx)) ||
           consumedAfterLoop(L, Ctx, History) ||
           consumedAndResetInLoop(L, Ctx) ||
           buildsFunctionResult(L, At, Ctx, History);
  // A module's state carried from one call of its method to the next,
  // which the module can reset: bounded unless the calls in view drop it.
  if (isResetModuleState(L, At, Ctx) && !stateKeptForNothing(L, At, Ctx, History))
    return true;
  // A member or global: somewhere in this file a backward pass walks it and
  // something clears or replaces it. Written through a field of its own,
  // that field of this object: walked (through the object), and cleared as
  // the write names it (or the whole object replaced).
  const ValueDecl *Held = L.Part ? L.Part : L.Target;
  bool Consumed = false, Reset = false;
  for (Decl *D : userDecls(Ctx)) {
    ResetFinder Resets(L.Target);
    Resets.walkDecl(D);
    Reset |= !Resets.Resets.empty();
    if (L.Part) {
      ResetFinder PartResets(L.Part);
      PartResets.walkDecl(D);
      Reset |= llvm::any_of(PartResets.Resets, [&](const Stmt *S) {
        const Expr *Object = resetObject(S);
        return Object && objectPath(Object) == L.PartPath;
      });
    }
    for (const CallExpr *Backward : backwardPassesInDecl(D))
      if (const Stmt *Body = enclosingFunctionBody(Backward, Ctx))
        if (TensorSources Sources(Body);
            walksHistoryOf(Backward, Held, Sources, Ctx,
                           History.flowAt(Backward)))
          Consumed |= !L.Part || walksHistoryOf(Backward, L.Target, Sources,
                                                Ctx, History.flowAt(Backward));
    if (Consumed && Reset)
      return true;
  }
  return false;
}

} // namespace torch_tidy::analysis
