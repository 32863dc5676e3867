//===--- TensorSources.cpp - Which variables a tensor was computed from ---===//

#include "checks/analysis/TensorSources.h"

#include "checks/analysis/ExprUtils.h"
#include "checks/analysis/FunctionFlow.h"
#include "checks/analysis/TorchTypes.h"
#include "checks/analysis/Walk.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace torch_tidy::analysis {

namespace {
class AssignmentCollector : public StmtWalk {
public:
  using Map = llvm::DenseMap<const ValueDecl *, llvm::SmallVector<const Expr *, 2>>;
  explicit AssignmentCollector(Map &Stored) : Stored(Stored) {}

  bool visitDecl(Decl *D) override {
    // A range-for's variable is stored from its range (below).
    if (const auto *VD = dyn_cast<VarDecl>(D); VD && !VD->isCXXForRangeDecl())
      if (const Expr *Init = VD->getInit())
        Stored[VD].push_back(Init);
    return true;
  }
  bool visit(Stmt *S) override {
    // for (auto &l : log_probs): l holds each element of log_probs in turn
    // (its own initialiser reads the hidden iterator, not the range).
    if (auto *For = dyn_cast<CXXForRangeStmt>(S)) {
      if (const VarDecl *Var = For->getLoopVariable(); Var && For->getRangeInit())
        Stored[Var].push_back(For->getRangeInit());
      return true;
    }
    if (auto *BO = dyn_cast<BinaryOperator>(S))
      return visitBinaryOperator(BO);
    if (auto *Call = dyn_cast<CXXOperatorCallExpr>(S))
      return visitOperatorCall(Call);
    if (auto *Call = dyn_cast<CXXMemberCallExpr>(S))
      return visitMemberCall(Call);
    return true;
  }

private:
  bool visitBinaryOperator(BinaryOperator *BO) {
    if (BO->isAssignmentOp())
      store(BO->getLHS(), BO->getRHS());
    return true;
  }
  bool visitOperatorCall(CXXOperatorCallExpr *Call) {
    if (Call->isAssignmentOp() && Call->getNumArgs() == 2)
      store(Call->getArg(0), Call->getArg(1));
    return true;
  }
  /// v.push_back(e), t.add_(e), buf.index_put_(i, e), and through a view,
  /// t.view({-1}).index_add_(0, i, e): the object now holds (or is computed
  /// from) e too.
  bool visitMemberCall(CXXMemberCallExpr *Call) {
    const Expr *Object = Call->getImplicitObjectArgument();
    const ValueDecl *D =
        Object ? referencedDecl(containerOf(inPlaceChainRoot(Object))) : nullptr;
    if (!D)
      return true;
    if (auto Def = definitionAt(Call, D))
      if (Def->Kind == Definition::Update)
        for (const Expr *Value : Def->Values)
          if (Value != Call)
            Stored[D].push_back(Value);
    return true;
  }

  void store(const Expr *LHS, const Expr *RHS) {
    // out.values = e: the local struct holds e too (what it goes on to,
    // `return out`, takes e's history).
    for (const VarDecl *Whole : localStructsWrittenBy(LHS))
      Stored[Whole].push_back(RHS);
    // v = e, v[k] = e, buf.select(0, i) = e.
    if (const ValueDecl *D = referencedDecl(containerOf(LHS))) {
      Stored[D].push_back(RHS);
      return;
    }
    for (const ValueDecl *D : tiedDecls(LHS))
      Stored[D].push_back(RHS);
  }
  Map &Stored;
};

/// Every variable or field named inside an expression.
class NamedDeclCollector : public StmtWalk {
public:
  /// With \p CutsIn, what a value cut from the graph names is left out,
  /// and what one \p CarriesNothing takes for a value with no history.
  explicit NamedDeclCollector(
      const ASTContext *CutsIn = nullptr,
      const std::function<bool(const Expr *)> *CarriesNothing = nullptr)
      : CutsIn(CutsIn), CarriesNothing(CarriesNothing) {}
  llvm::SmallVector<const ValueDecl *, 8> Decls;
  /// The objects whose tensor-holding members are read (`buffer` in
  /// `buffer.log_probs`, `agent` and `rollout` in `agent.rollout.values`),
  /// whatever their own type: what is computed from a part of an object is
  /// computed from the object.
  llvm::SmallVector<const ValueDecl *, 4> Holders;
  bool enter(Stmt *S) override {
    const auto *E = dyn_cast<Expr>(S);
    if (!CutsIn || !E)
      return true;
    return !cutsHistory(E, *CutsIn) &&
           !(CarriesNothing && *CarriesNothing && (*CarriesNothing)(E));
  }
  bool visit(Stmt *S) override {
    if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
      Decls.push_back(Ref->getDecl());
    else if (const auto *Member = dyn_cast<MemberExpr>(S))
      visitMember(Member);
    return true;
  }

private:
  void visitMember(const MemberExpr *Member) {
    Decls.push_back(Member->getMemberDecl());
    if (!holdsTensorsOrFields(Member->getType()))
      return;
    for (const Expr *Base = Member->getBase()->IgnoreParenImpCasts(); Base;) {
      if (const auto *Inner = dyn_cast<MemberExpr>(Base)) {
        Holders.push_back(Inner->getMemberDecl());
        Base = Inner->getBase()->IgnoreParenImpCasts();
      } else {
        if (const auto *Ref = dyn_cast<DeclRefExpr>(Base))
          Holders.push_back(Ref->getDecl());
        break;
      }
    }
  }
  const ASTContext *CutsIn;
  const std::function<bool(const Expr *)> *CarriesNothing;
};
} // namespace

TensorSources::TensorSources(const Stmt *FunctionBody) {
  if (FunctionBody)
    AssignmentCollector(StoredInto).walk(FunctionBody);
}

DeclSet TensorSources::sourcesOf(const Expr *E) const {
  return sourcesOf(E, nullptr);
}

DeclSet TensorSources::historySourcesOf(const Expr *E,
                                        const ASTContext &Ctx) const {
  return sourcesOf(E, &Ctx);
}

DeclSet TensorSources::sourcesOf(const Expr *E, const ASTContext *CutsIn) const {
  DeclSet Result;
  llvm::SmallPtrSet<const ValueDecl *, 16> Seen;
  llvm::SmallVector<const Expr *, 8> Work{E};
  while (!Work.empty()) {
    const Expr *Cur = Work.pop_back_val();
    NamedDeclCollector Names(CutsIn, &CarriesNothing);
    Names.walk(Cur);
    for (const ValueDecl *D : Names.Decls) {
      if (!isa<VarDecl, FieldDecl, BindingDecl>(D) || !Seen.insert(D).second)
        continue;
      if (const auto *Binding = dyn_cast<BindingDecl>(D)) {
        // `auto [a, b] = expr;`: a is computed from expr.
        if (holdsTensors(Binding->getType()))
          Result.insert(Binding);
        if (const ValueDecl *Whole = Binding->getDecomposedDecl())
          if (const Expr *Init = cast<VarDecl>(Whole)->getInit())
            Work.push_back(Init);
        continue;
      }
      // Numbers read from a tensor (its sizes, an item()) take nothing of
      // its graph along.
      if (holdsOnlyNumbers(D->getType()))
        continue;
      // A tensor, a container of tensors, an object of the user's that
      // holds some (`losses` in `losses.total_loss()`), or one whose tensor
      // parts are read.
      if (holdsTensorsOrFields(D->getType()) || mayHoldTensors(D->getType()) ||
          llvm::is_contained(Names.Holders, D))
        Result.insert(D);
      auto It = StoredInto.find(D);
      if (It != StoredInto.end())
        Work.append(It->second.begin(), It->second.end());
    }
  }
  return Result;
}

DeclSet TensorSources::computedFrom(const DeclSet &From) const {
  return computedFrom(From, nullptr);
}

DeclSet TensorSources::historyFrom(const DeclSet &From,
                                   const ASTContext &Ctx) const {
  return computedFrom(From, &Ctx);
}

DeclSet TensorSources::computedFrom(const DeclSet &From,
                                    const ASTContext *CutsIn) const {
  DeclSet Result = From;
  for (const auto &[D, Values] : StoredInto) {
    if (Result.contains(D))
      continue;
    for (const ValueDecl *Source : sourcesOfDecl(D, CutsIn))
      if (From.contains(Source)) {
        Result.insert(D);
        if (const auto *Whole = dyn_cast<DecompositionDecl>(D))
          for (const BindingDecl *Binding : Whole->bindings())
            Result.insert(Binding);
        break;
      }
  }
  return Result;
}

llvm::ArrayRef<const Expr *> TensorSources::storedValues(const ValueDecl *D) const {
  auto It = StoredInto.find(D);
  if (It == StoredInto.end())
    return {};
  return It->second;
}

DeclSet TensorSources::sourcesOfDecl(const ValueDecl *D) const {
  return sourcesOfDecl(D, nullptr);
}

DeclSet TensorSources::sourcesOfDecl(const ValueDecl *D,
                                     const ASTContext *CutsIn) const {
  DeclSet Result;
  auto It = StoredInto.find(D);
  if (It == StoredInto.end())
    return Result;
  for (const Expr *Value : It->second)
    for (const ValueDecl *Source : sourcesOf(Value, CutsIn))
      Result.insert(Source);
  return Result;
}

DeclSet TensorSources::namedIn(const Expr *E) const {
  DeclSet Result;
  NamedDeclCollector Names;
  Names.walk(E);
  for (const ValueDecl *D : Names.Decls)
    if (isa<VarDecl, FieldDecl, BindingDecl>(D) && holdsTensors(D->getType()))
      Result.insert(D);
  return Result;
}

} // namespace torch_tidy::analysis
