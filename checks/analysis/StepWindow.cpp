//===--- StepWindow.cpp - An optimizer step taken once every N iterations -===//

#include "checks/analysis/StepWindow.h"

#include "checks/analysis/ExprUtils.h"
#include "checks/analysis/LoopScope.h"
#include "checks/analysis/ObjectPaths.h"
#include "checks/analysis/Optimizers.h"
#include "checks/analysis/TensorSources.h"
#include "checks/analysis/TorchTypes.h"
#include "checks/analysis/Walk.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"

using namespace clang;

namespace torch_tidy::analysis {

/// \p E without parentheses, casts and converting constructions.
static const Expr *bare(const Expr *E) {
  for (unsigned Depth = 0; E && Depth < 16; ++Depth) {
    const Expr *Next = stripWrappers(E)->IgnoreParenCasts();
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(Next);
        Construct && Construct->getNumArgs() == 1 &&
        !isa<CXXDefaultArgExpr>(Construct->getArg(0)))
      Next = Construct->getArg(0);
    if (Next == E)
      return E;
    E = Next;
  }
  return E;
}

static std::optional<double> constantOf(const Expr *E, const ASTContext &Ctx) {
  if (!E || E->isValueDependent() || E->isTypeDependent())
    return std::nullopt;
  Expr::EvalResult Result;
  if (!E->EvaluateAsRValue(Result, Ctx) || Result.HasSideEffects)
    return std::nullopt;
  const APValue &V = Result.Val;
  if (V.isInt())
    return V.getInt().isSigned() ? double(V.getInt().getSExtValue())
                                 : double(V.getInt().getZExtValue());
  if (V.isFloat())
    return V.getFloat().convertToDouble();
  return std::nullopt;
}

namespace {
/// Whether a piece of code writes a variable: assigns it (also through an
/// assignment operator), steps it, takes its address; with
/// ThroughReferences, also hands it to a call as a non-const reference.
class WritesOf : public StmtWalk {
public:
  WritesOf(const ValueDecl *Var, bool ThroughReferences)
      : Var(Var), ThroughReferences(ThroughReferences) {}
  bool Found = false;
  bool visit(Stmt *S) override {
    if (auto *Op = dyn_cast<BinaryOperator>(S))
      return visitBinaryOperator(Op);
    if (auto *Op = dyn_cast<UnaryOperator>(S))
      return visitUnaryOperator(Op);
    if (auto *Op = dyn_cast<CXXOperatorCallExpr>(S); Op && visitOperatorCall(Op))
      return !Found;
    if (auto *Call = dyn_cast<CallExpr>(S); Call && ThroughReferences)
      return visitCall(Call);
    return true;
  }

private:
  bool visitBinaryOperator(BinaryOperator *Op) {
    Found |= Op->isAssignmentOp() && names(Op->getLHS());
    return !Found;
  }
  bool visitUnaryOperator(UnaryOperator *Op) {
    Found |= (Op->isIncrementDecrementOp() || Op->getOpcode() == UO_AddrOf) &&
             names(Op->getSubExpr());
    return !Found;
  }
  /// Whether the operator call assigns: then it is judged here alone.
  bool visitOperatorCall(CXXOperatorCallExpr *Op) {
    if (!Op->isAssignmentOp())
      return false;
    Found |= Op->getNumArgs() == 2 && names(Op->getArg(0));
    return true;
  }
  bool visitCall(CallExpr *Call) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    // An operator that is a method takes its object as argument 0.
    unsigned Shift = isa<CXXOperatorCallExpr>(Call) &&
                             isa_and_nonnull<CXXMethodDecl>(Callee) &&
                             !cast<CXXMethodDecl>(Callee)->isStatic()
                         ? 1
                         : 0;
    for (unsigned I = Shift, N = Call->getNumArgs(); I != N && !Found; ++I) {
      unsigned Param = I - Shift;
      bool ByReference =
          !Callee || Param >= Callee->getNumParams() ||
          isMutableReference(Callee->getParamDecl(Param)->getType());
      const Expr *Arg = Call->getArg(I);
      Found = ByReference && names(Arg) && !Arg->getType().isConstQualified() &&
              Arg->isLValue();
    }
    return !Found;
  }

  bool names(const Expr *E) const { return referencedDecl(E) == Var; }
  const ValueDecl *Var;
  bool ThroughReferences;
};
} // namespace

bool writesVariable(const Stmt *S, const ValueDecl *Var,
                    bool ThroughReferences) {
  WritesOf Writes(Var, ThroughReferences);
  Writes.walk(S);
  return Writes.Found;
}

/// The value a local stands for where it is read: its initializer, when it
/// is const or never written again in its function.
static const Expr *fixedValueOf(const Expr *E) {
  const auto *Ref = dyn_cast<DeclRefExpr>(E);
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!Var || !Var->getInit() || isa<ParmVarDecl>(Var))
    return nullptr;
  if (Var->getType().isConstQualified() || Var->isConstexpr())
    return Var->getInit();
  const auto *FD = dyn_cast_or_null<FunctionDecl>(Var->getParentFunctionOrMethod());
  if (!Var->isLocalVarDecl() || !FD || !FD->hasBody())
    return nullptr;
  return writesVariable(FD->getBody(), Var) ? nullptr : Var->getInit();
}

/// Whether \p Param, a parameter of a constructor, and \p Member, a member
/// of the object being built, have the same value wherever the member is
/// read: the constructor sets the member from the parameter, and every
/// other value the member is given is a constructor's parameter (no method
/// writes it after construction).
static bool setFromParameter(const Expr *Param, const Expr *Member) {
  const auto *Ref = dyn_cast<DeclRefExpr>(Param);
  const auto *P = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
  const auto *Ctor = P ? dyn_cast<CXXConstructorDecl>(P->getDeclContext()) : nullptr;
  ObjectPath Path = objectPath(Member);
  const auto *Field = dyn_cast_or_null<FieldDecl>(Path.leaf());
  if (!Ctor || !Field || Path.Decls.size() != 2 || Path.Decls.front() ||
      Field->getParent() != Ctor->getParent())
    return false;
  bool FromParam = false;
  for (const Expr *Value : valuesGiven(Field)) {
    const auto *Given = dyn_cast_or_null<ParmVarDecl>(referencedDecl(Value));
    if (!Given || !isa<CXXConstructorDecl>(Given->getDeclContext()))
      return false;
    FromParam |= Given == P;
  }
  if (!FromParam)
    return false;
  // Nothing else writes it: no increment, no compound assignment.
  for (const CXXMethodDecl *Method : Ctor->getParent()->methods()) {
    const FunctionDecl *Def = Method->getDefinition();
    if (!Def || !Def->hasBody() || isa<CXXConstructorDecl>(Def))
      continue;
    if (writesVariable(Def->getBody(), Field))
      return false;
  }
  return true;
}

static bool sameValueImpl(const Expr *A, const Expr *B, ASTContext &Ctx,
                          unsigned Depth) {
  A = bare(A);
  B = bare(B);
  if (!A || !B)
    return false;
  std::optional<double> CA = constantOf(A, Ctx), CB = constantOf(B, Ctx);
  if (CA && CB)
    return *CA == *CB;
  ObjectPath PA = objectPath(A), PB = objectPath(B);
  if (PA.Known && !PA.Decls.empty() && PA == PB)
    return true;
  if (setFromParameter(A, B) || setFromParameter(B, A))
    return true;
  if (Depth >= 3)
    return false;
  if (const Expr *Init = fixedValueOf(A))
    if (sameValueImpl(Init, B, Ctx, Depth + 1))
      return true;
  if (const Expr *Init = fixedValueOf(B))
    return sameValueImpl(A, Init, Ctx, Depth + 1);
  return false;
}

bool sameValue(const Expr *A, const Expr *B, ASTContext &Ctx) {
  return sameValueImpl(A, B, Ctx, 0);
}

bool hasFactor(const Expr *Divisor, const Expr *N, ASTContext &Ctx) {
  const Expr *D = bare(Divisor);
  if (!D)
    return false;
  if (sameValue(D, N, Ctx))
    return true;
  if (const auto *Mul = dyn_cast<BinaryOperator>(D); Mul && Mul->getOpcode() == BO_Mul)
    return hasFactor(Mul->getLHS(), N, Ctx) || hasFactor(Mul->getRHS(), N, Ctx);
  if (const auto *Mul = dyn_cast<CXXOperatorCallExpr>(D);
      Mul && Mul->getOperator() == OO_Star && Mul->getNumArgs() == 2)
    return hasFactor(Mul->getArg(0), N, Ctx) || hasFactor(Mul->getArg(1), N, Ctx);
  return false;
}

namespace {
/// Whether a loop counts with a variable: increments it and sets it back
/// to 0.
class Counting : public StmtWalk {
public:
  explicit Counting(const ObjectPath &Counter) : Counter(Counter) {}
  bool Increments = false, Resets = false;
  bool visit(Stmt *S) override {
    if (auto *Op = dyn_cast<UnaryOperator>(S))
      return visitUnaryOperator(Op);
    if (auto *Op = dyn_cast<BinaryOperator>(S))
      return visitBinaryOperator(Op);
    return true;
  }

private:
  bool visitUnaryOperator(UnaryOperator *Op) {
    Increments |= Op->isIncrementOp() && objectPath(Op->getSubExpr()) == Counter;
    return true;
  }
  bool visitBinaryOperator(BinaryOperator *Op) {
    if (!(objectPath(Op->getLHS()) == Counter))
      return true;
    if (Op->getOpcode() == BO_AddAssign)
      Increments = true;
    if (Op->getOpcode() == BO_Assign) {
      const Expr *Value = Op->getRHS()->IgnoreParenImpCasts();
      if (const auto *Int = dyn_cast<IntegerLiteral>(Value))
        Resets |= Int->getValue() == 0;
      if (const auto *Add = dyn_cast<BinaryOperator>(Value);
          Add && Add->getOpcode() == BO_Add &&
          objectPath(Add->getLHS()) == Counter)
        Increments = true;
    }
    return true;
  }

  const ObjectPath &Counter;
};
} // namespace

/// Whether \p E names a counter of \p Loop (`++c` counts as `c`).
static bool isCounter(const Expr *E, const Stmt *Loop) {
  E = E->IgnoreParenImpCasts();
  if (const auto *Inc = dyn_cast<UnaryOperator>(E); Inc && Inc->isIncrementOp())
    E = Inc->getSubExpr();
  ObjectPath Counter = objectPath(E);
  if (!Counter.Known || !Counter.leaf())
    return false;
  Counting Count(Counter);
  Count.walk(Loop);
  return Count.Increments && Count.Resets;
}

/// The N of `X % N`, if \p E is such a remainder.
static const Expr *modulusOf(const Expr *E) {
  const auto *Rem = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
  return Rem && Rem->getOpcode() == BO_Rem ? Rem->getRHS() : nullptr;
}

static bool isZero(const Expr *E, const ASTContext &Ctx) {
  std::optional<double> Value = constantOf(E, Ctx);
  return Value && *Value == 0;
}

/// N, when \p Cond lets its branch run once every N iterations of \p Loop.
static const Expr *everyIn(const Expr *Cond, const Stmt *Loop, ASTContext &Ctx) {
  const Expr *E = Cond->IgnoreParenImpCasts();
  if (const auto *Logical = dyn_cast<BinaryOperator>(E); Logical && Logical->isLogicalOp()) {
    if (const Expr *N = everyIn(Logical->getLHS(), Loop, Ctx))
      return N;
    return everyIn(Logical->getRHS(), Loop, Ctx);
  }
  if (const auto *Not = dyn_cast<UnaryOperator>(E); Not && Not->getOpcode() == UO_LNot)
    return modulusOf(Not->getSubExpr());
  const auto *Compare = dyn_cast<BinaryOperator>(E);
  if (!Compare)
    return nullptr;
  const Expr *L = Compare->getLHS(), *R = Compare->getRHS();
  switch (Compare->getOpcode()) {
  case BO_EQ:
    if (const Expr *N = modulusOf(L); N && isZero(R, Ctx))
      return N;
    if (const Expr *N = modulusOf(R); N && isZero(L, Ctx))
      return N;
    if (isCounter(L, Loop) && !isCounter(R, Loop))
      return R;
    if (isCounter(R, Loop) && !isCounter(L, Loop))
      return L;
    return nullptr;
  case BO_GE:
    return isCounter(L, Loop) && !isCounter(R, Loop) ? R : nullptr;
  case BO_LE:
    return isCounter(R, Loop) && !isCounter(L, Loop) ? L : nullptr;
  default:
    return nullptr;
  }
}

std::optional<StepWindow> stepWindowOf(const CallExpr *Step, const Stmt *Loop,
                                       ASTContext &Ctx) {
  const Stmt *Body = Loop ? loopBody(Loop) : nullptr;
  if (!Body)
    return std::nullopt;
  DynTypedNode Node = DynTypedNode::create(*Step);
  for (unsigned Depth = 0; Depth < 64; ++Depth) {
    const Stmt *Child = Node.get<Stmt>();
    if (!Child || Child == Body)
      return std::nullopt;
    auto Parents = Ctx.getParents(Node);
    if (Parents.empty())
      return std::nullopt;
    const auto *If = Parents[0].get<IfStmt>();
    if (If && Child == If->getThen() && If->getCond())
      if (const Expr *N = everyIn(If->getCond(), Loop, Ctx)) {
        std::optional<double> Constant = constantOf(N, Ctx);
        if (Constant && *Constant < 2)
          return std::nullopt;
        return StepWindow{If, N};
      }
    if (Parents[0].get<LambdaExpr>() || Parents[0].get<Decl>())
      return std::nullopt;
    Node = Parents[0];
  }
  return std::nullopt;
}

namespace {
/// The operand a call or operator divides by, if it divides:
/// `a / d`, `a /= d`, `a.div(d)`, `a.div_(d)`, `torch::div(a, d)`.
const Expr *divisorOf(const Expr *E) {
  if (const auto *Op = dyn_cast<BinaryOperator>(E))
    return Op->getOpcode() == BO_Div || Op->getOpcode() == BO_DivAssign
               ? Op->getRHS()
               : nullptr;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E))
    return (Op->getOperator() == OO_Slash || Op->getOperator() == OO_SlashEqual) &&
                   Op->getNumArgs() == 2
               ? Op->getArg(1)
               : nullptr;
  const auto *Call = dyn_cast<CallExpr>(E);
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  if (!FD || !FD->getIdentifier() || !isTorchFunction(FD) ||
      !llvm::is_contained({"div", "div_", "divide", "divide_", "true_divide",
                           "true_divide_"},
                          FD->getName()))
    return nullptr;
  if (isa<CXXMemberCallExpr>(Call))
    return Call->getNumArgs() > 0 ? Call->getArg(0) : nullptr;
  return Call->getNumArgs() > 1 ? Call->getArg(1) : nullptr;
}

/// What an in-place scaling writes: `t` of `t /= d`, `t.div_(d)`,
/// `t.mul_(s)`, `t *= s`.
const Expr *scaledInPlace(const Expr *E) {
  if (const auto *Op = dyn_cast<CompoundAssignOperator>(E))
    return Op->getOpcode() == BO_DivAssign || Op->getOpcode() == BO_MulAssign
               ? Op->getLHS()
               : nullptr;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E))
    return (Op->getOperator() == OO_SlashEqual || Op->getOperator() == OO_StarEqual) &&
                   Op->getNumArgs() == 2
               ? Op->getArg(0)
               : nullptr;
  if (const auto *Call = dyn_cast<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *MD = Call->getMethodDecl();
    if (MD && MD->getIdentifier() && isTorchFunction(MD) &&
        llvm::is_contained({"div_", "divide_", "true_divide_", "mul_", "multiply_"},
                           MD->getName()))
      return Call->getImplicitObjectArgument();
  }
  return nullptr;
}

/// Finds a division by N in what it visits, and a function of the user's
/// handed N.
class DivisionFinder : public StmtWalk {
public:
  DivisionFinder(const Expr *N, ASTContext &Ctx) : N(N), Ctx(Ctx) {}
  bool Found = false;
  bool visit(Stmt *S) override {
    const auto *E = dyn_cast<Expr>(S);
    if (!E)
      return true;
    if (const Expr *Divisor = divisorOf(E); Divisor && hasFactor(Divisor, N, Ctx))
      Found = true;
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      const FunctionDecl *FD = Call->getDirectCallee();
      if (FD && !isLibraryFunction(FD))
        for (const Expr *Arg : Call->arguments())
          Found |= sameValue(Arg, N, Ctx);
    }
    return !Found;
  }

private:
  const Expr *N;
  ASTContext &Ctx;
};

bool dividesBy(const Stmt *S, const Expr *N, ASTContext &Ctx) {
  DivisionFinder Finder(N, Ctx);
  Finder.walk(S);
  return Finder.Found;
}

/// The in-place scalings by 1/N of a function body: what each writes.
class InPlaceScalings : public StmtWalk {
public:
  InPlaceScalings(const Expr *N, ASTContext &Ctx) : N(N), Ctx(Ctx) {}
  llvm::SmallVector<const Expr *, 4> Targets;
  bool visit(Stmt *S) override {
    const auto *E = dyn_cast<Expr>(S);
    if (!E)
      return true;
    const Expr *Target = scaledInPlace(E);
    if (!Target)
      return true;
    // The operand: a divisor with N as a factor, or a factor that divides
    // by N (`mul_(1.0 / N)`).
    bool Divides = false;
    if (const Expr *Divisor = divisorOf(E))
      Divides = hasFactor(Divisor, N, Ctx);
    for (const Stmt *Child : E->children())
      if (Child != Target && !Divides)
        if (const auto *Operand = dyn_cast_or_null<Expr>(Child);
            Operand && bare(Operand) != bare(Target))
          Divides = dividesBy(Operand, N, Ctx);
    if (Divides)
      Targets.push_back(Target);
    return true;
  }

private:
  const Expr *N;
  ASTContext &Ctx;
};
} // namespace

bool scaledBy(const CallExpr *Backward, const Expr *N, const Stmt *Loop,
              const Stmt *FunctionBody, ASTContext &Ctx) {
  const Expr *Roots = backwardRoots(Backward);
  if (!Roots || !FunctionBody)
    return false;
  if (dividesBy(Roots, N, Ctx))
    return true;
  TensorSources Sources(FunctionBody);
  DeclSet From = Sources.sourcesOf(Roots);
  for (const ValueDecl *D : From)
    for (const Expr *Value : Sources.storedValues(D))
      if (dividesBy(Value, N, Ctx))
        return true;
  // In place, on what the roots come from or on a gradient.
  InPlaceScalings InPlace(N, Ctx);
  InPlace.walk(FunctionBody);
  for (const Expr *Target : InPlace.Targets) {
    if ((isGradientOf(inPlaceChainRoot(Target)) || isGradientOf(Target)) &&
        contains(Loop, Target))
      return true;
    if (const ValueDecl *D = referencedDecl(containerOf(inPlaceChainRoot(Target))))
      if (From.contains(D))
        return true;
  }
  // A gradient replaced by a scaled one: `p.mutable_grad() = p.grad() / N`.
  class GradientWrites : public StmtWalk {
  public:
    GradientWrites(const Expr *N, ASTContext &Ctx) : N(N), Ctx(Ctx) {}
    bool Found = false;
    bool visit(Stmt *S) override {
      const auto *Op = dyn_cast<CXXOperatorCallExpr>(S);
      if (!Op)
        return true;
      if (Op->getOperator() == OO_Equal && Op->getNumArgs() == 2 &&
          isGradientOf(Op->getArg(0)) && dividesBy(Op->getArg(1), N, Ctx))
        Found = true;
      return !Found;
    }

  private:
    const Expr *N;
    ASTContext &Ctx;
  } Writes(N, Ctx);
  Writes.walk(Loop);
  return Writes.Found;
}

/// Whether the learning rate \p Rate is divided by \p N: where it is
/// written, or in every value a variable or member it names is given.
static bool rateDividedBy(const Expr *Rate, const Expr *N, ASTContext &Ctx,
                          unsigned Depth) {
  if (dividesBy(Rate, N, Ctx))
    return true;
  const ValueDecl *D = referencedDecl(Rate);
  if (Depth >= 2 || !D || isa<ParmVarDecl>(D))
    return false;
  llvm::SmallVector<const Expr *, 4> Values = valuesGiven(D);
  return !Values.empty() && llvm::all_of(Values, [&](const Expr *Value) {
    return rateDividedBy(Value, N, Ctx, Depth + 1);
  });
}

bool learningRateScaledBy(const CallExpr *Step, const Expr *N, ASTContext &Ctx) {
  llvm::SmallVector<const Expr *, 2> Rates = learningRatesOf(receiverPath(Step));
  return !Rates.empty() && llvm::all_of(Rates, [&](const Expr *Rate) {
    return rateDividedBy(Rate, N, Ctx, 0);
  });
}

} // namespace torch_tidy::analysis
