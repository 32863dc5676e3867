//===--- StepWindow.h - An optimizer step taken once every N iterations ---===//
//
// Gradient accumulation runs the backward pass every iteration and the
// optimizer step only once every N: `if ((i + 1) % N == 0) { opt.step();
// ... }`, or a counter that counts to N and starts again. The N backward
// passes add their gradients up, so the loss must be divided by N (or the
// gradients, before the step) for the update to be the mean over the window
// rather than N times it.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_ANALYSIS_STEPWINDOW_H
#define TORCH_TIDY_ANALYSIS_STEPWINDOW_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"

#include <optional>

namespace torch_tidy::analysis {

/// The condition under which a step runs once every N iterations.
struct StepWindow {
  const clang::IfStmt *If = nullptr; ///< the `if` whose branch runs the step
  const clang::Expr *Every = nullptr; ///< N, as the condition writes it
};

/// The window of \p Step in \p Loop: an `if` of the loop's body whose
/// then-branch runs the step and whose condition (or one operand of its
/// `&&` / `||`) is `X % N == 0` (`0 == X % N`, `!(X % N)`) or a counter
/// compared with N (`c == N`, `c >= N`, `++c == N`) that the loop
/// increments and sets back to 0. None when N is a constant below 2.
std::optional<StepWindow> stepWindowOf(const clang::CallExpr *Step,
                                       const clang::Stmt *Loop,
                                       clang::ASTContext &Ctx);

/// Whether \p A and \p B have the same value: the same constant, the same
/// variable or member, a local initialised with such a value and never
/// written again, or a constructor's parameter and the member that
/// constructor sets from it and no method writes again (casts looked
/// through).
bool sameValue(const clang::Expr *A, const clang::Expr *B,
               clang::ASTContext &Ctx);

/// Whether \p Divisor is \p N or a product with \p N as a factor.
bool hasFactor(const clang::Expr *Divisor, const clang::Expr *N,
               clang::ASTContext &Ctx);

/// Whether the backward pass \p Backward, run in \p Loop, or the gradients
/// it leaves, are scaled by 1/\p N: in \p FunctionBody, its roots or what
/// they are computed from are divided by N (`loss / N`, `loss /= N`,
/// `div_(N)`, `* (1.0 / N)`) or computed by a function of the user's that
/// is handed N; or, in the loop, a gradient is divided by N
/// (`p.mutable_grad().div_(N)`).
bool scaledBy(const clang::CallExpr *Backward, const clang::Expr *N,
              const clang::Stmt *Loop, const clang::Stmt *FunctionBody,
              clang::ASTContext &Ctx);

/// Whether the optimizer that \p Step steps is built with a learning rate
/// divided by \p N (`torch::optim::SGD opt(params, lr / N)`, or a member
/// set to `lr / n` in the constructor that also sets N to n): the window's
/// scaling is made in the step size instead of the loss.
bool learningRateScaledBy(const clang::CallExpr *Step, const clang::Expr *N,
                          clang::ASTContext &Ctx);

/// Whether \p S writes the variable \p Var: assigns it (also through an
/// assignment operator), steps it (`++n`), or takes its address; with
/// \p ThroughReferences, also hands it to a call as a non-const reference.
bool writesVariable(const clang::Stmt *S, const clang::ValueDecl *Var,
                    bool ThroughReferences = false);

} // namespace torch_tidy::analysis

#endif
