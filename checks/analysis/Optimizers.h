//===--- Optimizers.h - Which optimizer a call acts on, and what it holds -===//
//
// An optimizer is an object of a class derived from torch::optim::Optimizer.
// Its `step()` applies the gradients that the backward passes since the
// last zeroing added up; its `zero_grad()`, or the `zero_grad()` of a module
// whose parameters it holds, clears them. Which modules those are is read
// from where the optimizer is built: `torch::optim::Adam
// optimizer(model->parameters(), ...)`.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_ANALYSIS_OPTIMIZERS_H
#define TORCH_TIDY_ANALYSIS_OPTIMIZERS_H

#include "checks/analysis/ObjectPaths.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

namespace torch_tidy::analysis {

/// Whether \p Call is `zero_grad()` of a torch::optim::Optimizer.
bool isOptimizerZeroGrad(const clang::CallExpr *Call);

/// Whether \p Call is `zero_grad()` of a module (torch::nn::Module, a
/// ModuleHolder, torch::jit::Module).
bool isModuleZeroGrad(const clang::CallExpr *Call);

/// Whether \p Call clears gradients held by tensors:
/// `p.mutable_grad().zero_()`, `p.grad().data().zero_()`,
/// `p.mutable_grad().reset()`, `p.mutable_grad() = torch::Tensor()`.
bool clearsTensorGradient(const clang::Expr *Call);

/// Whether \p E is the gradient of a tensor, or read from it through
/// `data()` or `detach()`: `p.grad()`, `p.mutable_grad().data()`.
bool isGradientOf(const clang::Expr *E);

/// The object a method call is made on (`this` for an implicit one).
ObjectPath receiverPath(const clang::CallExpr *Call);

/// The modules whose parameters an optimizer holds.
struct OptimizedModules {
  /// Every place that builds the optimizer in view names them.
  bool Known = false;
  llvm::SmallVector<ObjectPath, 2> Paths;
  /// Whether \p Module may be one of them, hold one, or be part of one.
  bool mayInclude(const ObjectPath &Module) const;
};

/// What builds the optimizer \p Optimizer names: a variable's initializer
/// and the assignments to it in its function; a member's initializers
/// (in its class and in its class's constructors) and its assignments in
/// the class's methods (`optimizer_ = std::make_unique<torch::optim::Adam>(
/// net_->parameters(), ...)`, `.reset(new ...)`). A parameter, or a build
/// from anything but a module's `parameters()` (a vector gathered
/// elsewhere), is not known.
OptimizedModules optimizedModules(const ObjectPath &Optimizer,
                                  clang::ASTContext &Ctx);

/// What a variable or member is given: a variable's initializer and the
/// assignments to it in its function; a member's initializers (in its
/// class and in its class's constructors) and its assignments in the
/// class's methods; `.reset(...)` of either.
llvm::SmallVector<const clang::Expr *, 4> valuesGiven(const clang::ValueDecl *D);

/// The learning rates the optimizer \p Optimizer names is built with, as
/// written where it is built (see optimizedModules): the options' `lr`
/// (`torch::optim::AdamOptions(lr).weight_decay(...)`,
/// `SGDOptions(0.1).lr(lr)`), or the number given in their place. Empty
/// when a build is not seen, or one gives no learning rate (default
/// options, options kept in a variable).
llvm::SmallVector<const clang::Expr *, 2>
learningRatesOf(const ObjectPath &Optimizer);

} // namespace torch_tidy::analysis

#endif
