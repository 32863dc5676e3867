//===--- Outlives.cpp - O: does the target outlive the iteration? ---------===//

#include "checks/analysis/Outlives.h"

#include "checks/analysis/ExprUtils.h"
#include "checks/analysis/FunctionFlow.h"
#include "checks/analysis/LoopScope.h"
#include "checks/analysis/TensorSources.h"
#include "checks/analysis/TorchTypes.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

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

std::optional<Lifetime> outlivesIteration(const Expr *Target, const Stmt *At,
                                          ASTContext &Ctx) {
  bool ThroughThis = false;
  const ValueDecl *D = rootOf(Target, ThroughThis);
  if (!D)
    return std::nullopt;
  const Stmt *Loop = innermostLoop(At, Ctx);
  if (isa<FieldDecl>(D))
    return Lifetime{Lifetime::Call, D, Loop};
  const auto *Var = dyn_cast<VarDecl>(D);
  if (!Var)
    return std::nullopt;
  if (!Var->hasLocalStorage())
    return Lifetime{Lifetime::Call, D, Loop};
  if (isa<ParmVarDecl>(Var)) {
    QualType T = Var->getType();
    if ((T->isLValueReferenceType() && !T.getNonReferenceType().isConstQualified()) ||
        (T->isPointerType() && !T->getPointeeType().isConstQualified()))
      return Lifetime{Lifetime::Call, D, Loop};
  }
  if (!Loop)
    return std::nullopt;
  // Declared outside the loop: its declaration is not in the loop.
  if (isDeclaredWithin(Var, Loop, Ctx.getSourceManager()))
    return std::nullopt;
  return Lifetime{Lifetime::Loop, D, Loop};
}

namespace {
/// Backward passes and resets of one target.
class ConsumerFinder : public RecursiveASTVisitor<ConsumerFinder> {
public:
  ConsumerFinder(const ValueDecl *Target) : Target(Target) {}
  llvm::SmallVector<const CallExpr *, 4> Backwards;
  llvm::SmallVector<const Stmt *, 4> Resets;
  bool shouldVisitLambdaBody() const { return true; }

  bool VisitCallExpr(CallExpr *Call) {
    if (isBackwardFunction(Call->getDirectCallee()))
      Backwards.push_back(Call);
    noteReset(Call);
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    noteReset(BO);
    return true;
  }

private:
  /// `t.clear()`, `t = fresh`: a reset, unless the new value is computed
  /// from the old one (`t = t + x` keeps accumulating).
  void noteReset(const Stmt *S) {
    auto Def = definitionAt(S, Target);
    if (Def && Def->Kind == Definition::Replace &&
        llvm::none_of(Def->Values,
                      [&](const Expr *V) { return mentions(V, Target); }))
      Resets.push_back(S);
  }
  const ValueDecl *Target;
};

/// Whether the backward pass \p Call walks the graph of \p Target.
bool consumes(const CallExpr *Call, const ValueDecl *Target,
              const TensorSources &Sources) {
  const Expr *Roots = backwardRoots(Call);
  if (!Roots)
    return false;
  return mentions(Roots, Target) || Sources.sourcesOf(Roots).contains(Target);
}
} // namespace

bool isBoundedOnPurpose(const Lifetime &L, const Stmt *At, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  if (L.Kind == Lifetime::Loop) {
    // A backward pass after the loop, in the same function, walks the graph.
    const Stmt *Body = enclosingFunctionBody(L.LoopStmt, Ctx);
    if (!Body)
      return false;
    ConsumerFinder Finder(L.Target);
    Finder.TraverseStmt(const_cast<Stmt *>(Body));
    if (Finder.Backwards.empty())
      return false;
    TensorSources Sources(Body);
    for (const CallExpr *Backward : Finder.Backwards) {
      if (!SM.isBeforeInTranslationUnit(L.LoopStmt->getEndLoc(),
                                        Backward->getBeginLoc()) ||
          !consumes(Backward, L.Target, Sources))
        continue;
      // Across an enclosing loop, the target must start afresh each time.
      const Stmt *Outer = innermostLoop(L.LoopStmt, Ctx);
      if (!Outer)
        return true;
      if (isDeclaredWithin(L.Target, Outer, SM))
        return true;
      for (const Stmt *Reset : Finder.Resets)
        if (contains(loopBody(Outer), Reset))
          return true;
    }
    return false;
  }
  // A member or global: somewhere in this file a backward pass walks it and
  // something clears or replaces it.
  bool Consumed = false, Reset = false;
  for (Decl *D : Ctx.getTranslationUnitDecl()->decls()) {
    if (SM.isInSystemHeader(D->getLocation()))
      continue;
    ConsumerFinder Finder(L.Target);
    Finder.TraverseDecl(D);
    Reset |= !Finder.Resets.empty();
    for (const CallExpr *Backward : Finder.Backwards)
      if (const Stmt *Body = enclosingFunctionBody(Backward, Ctx))
        Consumed |= consumes(Backward, L.Target, TensorSources(Body));
    if (Consumed && Reset)
      return true;
  }
  return false;
}

} // namespace torch_tidy::analysis
