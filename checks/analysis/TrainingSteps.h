//===--- TrainingSteps.h - Which calls train, and the unit's helpers ------===//
//
// Training code is spread over the user's functions: a loop calls
// `train_epoch(model, optimizer)`, a trainer's `update()` runs the backward
// pass and the optimizer step. These questions follow such calls into the
// bodies the translation unit has.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_ANALYSIS_TRAININGSTEPS_H
#define TORCH_TIDY_ANALYSIS_TRAININGSTEPS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

namespace torch_tidy::analysis {

class NameGuesses;

/// The body of the function \p Call runs when it is the user's and in the
/// unit (not LibTorch's or the standard library's, not in a system header,
/// not a virtual method another unit may override); a lambda's call
/// operator counts. Null otherwise.
const clang::Stmt *userBodyCalled(const clang::CallExpr *Call,
                                  const clang::ASTContext &Ctx);

/// Whether \p Call runs a function of the user's that no body in the unit
/// answers for: declared, defined elsewhere.
bool callsOutOfView(const clang::CallExpr *Call, const clang::ASTContext &Ctx);

/// Whether \p Call runs a function of the unit that trains: its body runs a
/// backward pass or an optimizer step, itself or through the functions of
/// the unit it calls (three calls deep).
bool callTrains(const clang::CallExpr *Call, const clang::ASTContext &Ctx);

/// Whether \p S trains: trainsIn(\p S), or a call in it (outside the
/// lambdas it defines) of a function of the unit that trains (callTrains):
/// a training step factored into a function (`auto [out, loss] =
/// model->train_step(x, y, opt);` in the epoch loop) trains where it is
/// called.
bool trainsThroughCalls(const clang::Stmt *S, const clang::ASTContext &Ctx);

/// Whether \p S updates parameters: an optimizer step, or a backward pass
/// that adds into gradients (not `torch::autograd::grad`, which returns
/// derivatives: a Jacobian, forces), in \p S or in a function of the unit
/// it calls (three calls deep).
bool updatesParametersThroughCalls(const clang::Stmt *S,
                                   const clang::ASTContext &Ctx);

/// Whether \p S runs the model again and again: a loop, in \p S or in a
/// function of the unit it calls (three calls deep), whose body runs a
/// forward pass, itself or through such a function (a benchmark that
/// times the model batch after batch).
bool runsModelRepeatedlyThroughCalls(const clang::Stmt *S,
                                     const clang::ASTContext &Ctx,
                                     const NameGuesses &Names);

/// Whether \p Call is a backward pass that adds into the parameters'
/// gradients: `Tensor::backward` or `torch::autograd::backward` (not
/// `torch::autograd::grad`, which returns the gradients instead).
bool accumulatesGradients(const clang::CallExpr *Call);

} // namespace torch_tidy::analysis

#endif
