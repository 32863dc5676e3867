//===--- BackwardPasses.h - Where gradients are computed ------------------===//
//
// The backward passes (Tensor::backward, torch::autograd::backward and
// torch::autograd::grad) and optimizer steps of a piece of code, and which
// graphs a backward pass walks: those of its roots and of every tensor they
// were computed from in the same function. A graph that a backward pass has
// walked has freed its saved activations (unless the graph is retained);
// only its nodes stay alive while something holds them.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_ANALYSIS_BACKWARDPASSES_H
#define TORCH_TIDY_ANALYSIS_BACKWARDPASSES_H

#include "checks/analysis/TensorSources.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace torch_tidy::analysis {

class FunctionFlow;
class FunctionSummaries;
class NameGuesses;

/// Whether \p Call is `optimizer.step(...)` on a torch::optim::Optimizer.
bool isOptimizerStep(const clang::CallExpr *Call);

/// Every backward pass in \p S, lambdas included.
llvm::SmallVector<const clang::CallExpr *, 4>
backwardPassesIn(const clang::Stmt *S);

/// Every backward pass in the declaration \p D (a function, a class).
llvm::SmallVector<const clang::CallExpr *, 4>
backwardPassesInDecl(const clang::Decl *D);

/// Whether \p S runs a backward pass or an optimizer step (outside the
/// lambdas it defines): code that trains.
bool trainsIn(const clang::Stmt *S);

/// The first place where the code of the unit outside system headers
/// trains: a backward pass (Tensor::backward, torch::autograd::backward or
/// grad), an optimizer step, or, in a template, a call named `backward` or
/// `step` whose object's type the template leaves open (an instantiation
/// may make it one). Null when nothing in the unit trains. With it, the
/// function summaries tell whether any unit of a project trains: a project
/// that trains nowhere differentiates nothing.
const clang::Stmt *firstTrainingIn(clang::ASTContext &Ctx);

/// Whether \p FD runs a backward pass of its own: in its body (outside the
/// lambdas it defines), or in a function of the user's that it calls, with
/// a body in view or, in another unit, said to by \p Summaries (forces
/// computed in a model's forward as the gradient of its energy). Such a
/// function needs grad mode on: under a guard its backward pass finds no
/// graph. \p At receives where (`file:line:column`).
bool runsBackwardPass(const clang::FunctionDecl *FD,
                      const FunctionSummaries *Summaries,
                      std::string *At = nullptr);

/// Whether \p Call is torch::autograd::grad asked for a graph of the
/// backward pass (create_graph true, or not known to be false): its
/// gradients are a differentiable result, as a forward's output is.
bool buildsDifferentiableGradients(const clang::CallExpr *Call,
                                   const clang::ASTContext &Ctx);

/// trainsIn(\p S), not counting the calls that build differentiable
/// gradients: code that computes higher-order derivatives for its caller
/// (a Hessian's diagonal, a Jacobian taken column by column) trains nothing
/// itself.
bool trainsBesidesDifferentiableGradients(const clang::Stmt *S,
                                          const clang::ASTContext &Ctx);

/// Whether the backward pass \p Backward walks the graph of \p Target: its
/// roots are \p Target or take autograd history from it; roots computed
/// from \p Target only through a copy cut from the graph (`loss = ratio *
/// old_log_probs.detach()`) do not walk its graph. With \p Flow, the flow
/// of the function the backward pass is in, a local read on the way brings
/// only what the definitions reaching that read stored: `returns =
/// torch::cat(stored); returns = returns.detach();` before the loss is
/// built walks nothing of `stored`.
bool walksHistoryOf(const clang::CallExpr *Backward,
                    const clang::ValueDecl *Target,
                    const TensorSources &Sources,
                    const clang::ASTContext &Ctx,
                    const FunctionFlow *Flow = nullptr);

/// Whether the backward pass \p Backward walks a graph that \p Value is
/// part of: its roots are computed from a variable that \p Value names.
bool walksGraphOfValue(const clang::CallExpr *Backward,
                       const clang::Expr *Value, const TensorSources &Sources);

/// Whether the graph that \p Backward walks was built before \p Loop: its
/// roots are computed from values with history defined outside the loop,
/// and no forward pass in the loop feeds them (a Jacobian or Hessian taken
/// row by row, one loss per task over a shared forward). Each iteration's
/// backward pass then walks the same graph, which must be retained for the
/// next one.
bool walksGraphBuiltBefore(const clang::CallExpr *Backward,
                           const clang::Stmt *Loop, clang::ASTContext &Ctx,
                           const NameGuesses &Names);

/// The code that runs once per iteration around \p S: the body of the
/// innermost loop that runs it, else the body of its function.
const clang::Stmt *iterationAround(const clang::Stmt *S, clang::ASTContext &Ctx);

/// Whether a backward pass that frees its graph runs in \p Scope and walks
/// the graph of \p Value (sources taken in \p FunctionBody), or \p Value
/// (or the variable it reads) comes from a call in \p Scope of a function
/// of the unit whose own backward pass, run once per call, walked what it
/// returns.
bool walkedIn(const clang::Stmt *Scope, const clang::Stmt *FunctionBody,
              const clang::Expr *Value, clang::ASTContext &Ctx);

/// Whether \p Backward passes retain_graph=true (or create_graph=true).
bool retainsGraph(const clang::CallExpr *Backward, const clang::ASTContext &Ctx);

} // namespace torch_tidy::analysis

#endif
