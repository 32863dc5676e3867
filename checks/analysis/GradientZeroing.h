//===--- GradientZeroing.h - Are a step's gradients cleared between steps? ===//
//
// A backward pass adds into the gradients the parameters hold; an optimizer
// step applies what they hold. Unless something clears them between two
// steps of an optimizer (its `zero_grad()`, the `zero_grad()` of a module
// whose parameters it holds, `p.mutable_grad().zero_()` or `.reset()` over
// parameters, or a function of the unit that does one of these), each step
// applies the sum of every gradient since training began.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_ANALYSIS_GRADIENTZEROING_H
#define TORCH_TIDY_ANALYSIS_GRADIENTZEROING_H

#include "checks/analysis/FunctionFlow.h"
#include "checks/analysis/Optimizers.h"
#include "clang/AST/ASTContext.h"
#include "llvm/ADT/DenseMap.h"

#include <vector>

namespace torch_tidy::analysis {

/// The clearings of the gradients that one optimizer step applies, in the
/// function that runs the step.
class GradientZeroing {
public:
  /// \p Step is `optimizer.step()`; \p Function the function (or lambda)
  /// whose body contains it.
  GradientZeroing(const clang::CallExpr *Step, const clang::FunctionDecl *Function,
                  clang::ASTContext &Ctx);

  /// The optimizer the step is called on.
  const ObjectPath &optimizer() const { return Optimizer; }

  /// Whether \p S clears the gradients of the step's optimizer, or may:
  /// a `zero_grad()` of that optimizer, of another built on the parameters
  /// of a module it holds, or of a module it may hold (a
  /// receiver that may be either counts), a gradient of any tensor cleared
  /// in place or replaced, a statement of a loop (other than one that runs
  /// the step) that does one of these, a function of the unit that does
  /// one of these (three calls deep), or a function of the user's out of
  /// view that is handed the optimizer or a module.
  bool clears(const clang::Stmt *S);

  /// Whether \p S is a step of the same optimizer.
  bool isSameStep(const clang::Stmt *S) const;

  /// A step of the same optimizer (the step itself, an iteration earlier,
  /// or another) from which some path of \p Flow reaches the step with
  /// nothing that clears on the way; null when every path clears (or
  /// starts at the function's entry).
  const clang::Stmt *stepReachedUncleared(const FunctionFlow &Flow);

  /// Whether some statement of \p Scope clears.
  bool clearsIn(const clang::Stmt *Scope);

private:
  bool clearsHere(const clang::Stmt *S, unsigned Depth);

  const clang::CallExpr *Step;
  clang::ASTContext &Ctx;
  ObjectPath Optimizer;
  OptimizedModules Modules;
  /// Loops of the function, not running the step, that clear.
  std::vector<clang::SourceRange> ClearingLoops;
  llvm::DenseMap<const clang::Stmt *, bool> Known;
};

} // namespace torch_tidy::analysis

#endif
