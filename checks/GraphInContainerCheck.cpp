//===--- GraphInContainerCheck.cpp - torch-graph-in-container -------------===//

#include "checks/GraphInContainerCheck.h"

#include "checks/analysis/ExprUtils.h"
#include "checks/analysis/Outlives.h"
#include "checks/analysis/TorchTypes.h"
#include "checks/GrowthDiagnostics.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torch_tidy {

namespace {
AST_MATCHER(QualType, holdsTensors) { return analysis::holdsTensors(Node); }
AST_MATCHER(QualType, isTensor) { return analysis::isTensorType(Node); }
/// A standard container of tensors, or of records that hold them (a
/// replay memory of transitions).
AST_MATCHER(QualType, containerOfTensors) {
  return (analysis::holdsTensors(Node) && !analysis::isTensorType(Node)) ||
         analysis::holdsTensorRecords(Node);
}
/// What one element of such a container is: a tensor, or a record that
/// holds some.
AST_MATCHER(QualType, tensorElement) {
  return analysis::holdsTensorsOrFields(Node);
}

/// A position argument (`v.insert(v.end(), t)`), not a stored value.
bool isIterator(const Expr *E) {
  const auto *RD =
      E->getType().getNonReferenceType().getCanonicalType()->getAsCXXRecordDecl();
  return RD && RD->getIdentifier() && RD->getName().contains("iterator");
}
/// The key of `m[k]`, `v.at(k)`, `this->operator[](k)` when that element of
/// a standard container (not a slice of a tensor) is written.
const Expr *keyOf(const Expr *Element) {
  Element = analysis::stripWrappers(Element);
  const Expr *Object = nullptr, *Key = nullptr;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Element)) {
    if (Op->getOperator() == OO_Subscript && Op->getNumArgs() == 2) {
      Object = Op->getArg(0);
      Key = Op->getArg(1);
    }
  } else if (const auto *Call = dyn_cast<CXXMemberCallExpr>(Element)) {
    if (Call->getNumArgs() == 1) {
      Object = Call->getImplicitObjectArgument();
      Key = Call->getArg(0);
    }
  }
  if (!Object || analysis::isTensorType(Object->getType().getNonReferenceType()))
    return nullptr;
  return Key;
}
} // namespace

void GraphInContainerCheck::registerMatchers(MatchFinder *Finder) {
  // A standard container of tensors (vector, deque, list, map, ...), or
  // of records holding tensors.
  auto Container = expr(hasType(qualType(containerOfTensors())));
  // `push_back(t)`, `this->operator[](k)` in a method of a class derived
  // from a container of tensors: the object itself.
  auto OnContainer = anyOf(
      on(Container),
      on(cxxThisExpr(hasType(pointsTo(qualType(holdsTensors(), unless(isTensor())))))));
  // v.push_back(t), v.emplace_back(t), m.insert(...), m.emplace(k, t), ...
  Finder->addMatcher(
      cxxMemberCallExpr(OnContainer,
                        callee(cxxMethodDecl(hasAnyName(
                            "push_back", "emplace_back", "push_front",
                            "emplace_front", "insert", "emplace",
                            "insert_or_assign", "try_emplace"))))
          .bind("store"),
      this);
  // m[k] = t, v[i] = t, v.at(i) = t, this->operator[](k) = t; an element
  // that is a record of tensors too (`losses[k] = std::move(epoch)`).
  Finder->addMatcher(
      cxxOperatorCallExpr(
          hasOverloadedOperatorName("="), argumentCountIs(2),
          hasArgument(0, expr(hasType(qualType(tensorElement())),
                              anyOf(cxxOperatorCallExpr(
                                        hasOverloadedOperatorName("[]"),
                                        hasArgument(0, Container)),
                                    cxxMemberCallExpr(
                                        OnContainer,
                                        callee(cxxMethodDecl(anyOf(
                                            hasName("at"),
                                            hasOverloadedOperatorName(
                                                "[]")))))))))
          .bind("store"),
      this);
  // buf[i] = t, buf.select(0, i) = t: written into a slice of a tensor
  // buffer.
  auto Tensor = expr(hasType(qualType(isTensor())));
  Finder->addMatcher(
      cxxOperatorCallExpr(
          hasOverloadedOperatorName("="), argumentCountIs(2),
          hasArgument(0, ignoringImplicit(expr(
                             Tensor,
                             anyOf(cxxOperatorCallExpr(
                                        hasOverloadedOperatorName("[]"),
                                        hasArgument(0, Tensor)),
                                    cxxMemberCallExpr(
                                        on(Tensor),
                                        callee(cxxMethodDecl(hasAnyName(
                                            "index", "select", "narrow",
                                            "slice")))))))))
          .bind("store"),
      this);
  // buf[i].copy_(t), buf.index_put_({i}, t): written into a tensor buffer.
  Finder->addMatcher(
      cxxMemberCallExpr(on(expr(hasType(qualType(isTensor())))),
                        callee(cxxMethodDecl(hasAnyName(
                            "copy_", "index_put_", "index_copy_",
                            "masked_scatter_", "scatter_"))))
          .bind("store"),
      this);
}

void GraphInContainerCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  const auto *Store = Result.Nodes.getNodeAs<Expr>("store");
  analysis::HistoryAnalysis &History = Facts.history(Ctx, HistoryOpts);

  const Expr *TargetExpr = nullptr;
  const Expr *Key = nullptr; // of a write that replaces one element
  llvm::SmallVector<const Expr *, 2> Stored;
  if (const auto *Call = dyn_cast<CXXMemberCallExpr>(Store)) {
    TargetExpr = Call->getImplicitObjectArgument();
    llvm::StringRef Method = Call->getMethodDecl()->getName();
    if (Method == "index_put_" || Method == "index_copy_" ||
        Method == "scatter_" || Method == "masked_scatter_") {
      if (Call->getNumArgs() > 0)
        Stored.push_back(Call->getArg(Call->getNumArgs() - 1));
    } else if (Method == "copy_") {
      if (Call->getNumArgs() > 0)
        Stored.push_back(Call->getArg(0));
    } else {
      // m.insert_or_assign(k, t), m.emplace(k, t): one key's element.
      if (llvm::is_contained({"insert_or_assign", "try_emplace", "emplace"},
                             Method) &&
          Call->getNumArgs() == 2 && !isIterator(Call->getArg(0)))
        Key = Call->getArg(0);
      for (const Expr *Arg : Call->arguments())
        if (!isa<CXXDefaultArgExpr>(Arg) &&
            analysis::holdsTensorsOrFields(Arg->getType()) && !isIterator(Arg))
          Stored.push_back(Arg);
    }
  } else {
    const auto *Assign = cast<CXXOperatorCallExpr>(Store);
    TargetExpr = Assign->getArg(0);
    Stored.push_back(Assign->getArg(1));
    Key = keyOf(TargetExpr);
  }

  // Written in place into a parameter: that only runs with grad mode off.
  if (History.writesIntoGradLeaf(TargetExpr))
    return;
  // Stored into a variable that the function then uses as an index: an
  // integer or boolean tensor, with no history.
  if (History.storesIndices(TargetExpr, Store))
    return;
  llvm::SmallVector<const Expr *, 2> Carrying;
  for (const Expr *Value : Stored)
    if (History.keepsGraph(Value))
      Carrying.push_back(analysis::stripWrappers(Value));
  if (Carrying.empty())
    return;
  std::optional<analysis::Lifetime> Life =
      analysis::outlivesIteration(TargetExpr, Store, Ctx, Carrying);
  if (!Life)
    return;
  // m["loss"] = loss each step replaces one element: nothing grows.
  if (Key && !analysis::writesNewSlot(*Life, Key, Ctx))
    return;
  if (analysis::isBoundedOnPurpose(*Life, Store, Ctx, History))
    return;
  report(Store, *Life, Carrying, History);
}

void GraphInContainerCheck::report(const Expr *Store,
                                   const analysis::Lifetime &Life,
                                   llvm::ArrayRef<const Expr *> Carrying,
                                   analysis::HistoryAnalysis &History) {
  ASTContext &Ctx = History.context();
  Kept K = keptBy(Carrying, Life, Store, History);
  if (K == Kept::GraphNodes && !NodeOnly.reported())
    return;
  // One element reaches the function's result: detaching every stored
  // value would change what it returns.
  const Expr *Picked = analysis::pickedForResult(Life, Store, Ctx);
  bool NoFix = Picked ||
               detachChangesGradients(Life, Store, /*Recurrent=*/false, History);
  std::string Name = Life.name();
  {
    auto Diag =
        K == Kept::Activations
            ? diag(Store->getBeginLoc(),
                   "'%0' outlives the %select{iteration|call}1 and each time "
                   "a tensor that carries autograd history is stored in it, "
                   "so each step's graph and saved activations stay reachable "
                   "and memory grows with every step")
            : diag(Store->getBeginLoc(),
                   "'%0' outlives the %select{iteration|call}1 and each time "
                   "a tensor that carries autograd history is stored in it; "
                   "backward() has freed the saved activations, but each "
                   "step's autograd graph nodes stay reachable and host "
                   "memory grows with every step",
                   NodeOnly.level(K));
    Diag << Name << (Life.Kind == analysis::Lifetime::Call)
         << Store->getSourceRange();
    if (!NoFix)
      for (const FixItHint &Fix : detachEach(Carrying, Ctx))
        Diag << Fix;
  }
  noteLifetime(*this, Life, Life.Target);
  noteKeepingCallSite(*this, Life, History);
  noteDiscardedResult(*this, Life, Store, History);
  if (const Stmt *Reset = analysis::resetOf(Life, Store, Ctx))
    diag(Reset->getBeginLoc(),
         "'%0' is cleared here, which bounds the growth, but every graph "
         "stored before it stays alive until then",
         DiagnosticIDs::Note)
        << Name;
  if (Life.Kind == analysis::Lifetime::Call)
    noteCallSite(*this, Carrying, History);
  noteMemberWrite(*this, Carrying, History);
  noteAssumption(*this, Carrying, History);
  if (Picked) {
    diag(Picked->getBeginLoc(),
         "only one element of '%0' reaches the function's result, here; the "
         "graphs of the others are kept until the function returns, for "
         "nothing",
         DiagnosticIDs::Note)
        << Name << Picked->getSourceRange();
    diag(Store->getBeginLoc(),
         "no fix: the function returns one of the stored values with its "
         "graph; detach the others where they are no longer needed, or keep "
         "only the best one as the loop goes",
         DiagnosticIDs::Note);
  } else if (NoFix)
    noteNoFix(*this, Store, /*Recurrent=*/false);
}

} // namespace torch_tidy
