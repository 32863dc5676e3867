//===--- ModeRestore.h - Is a module set back to training before it trains?
//
// `module->eval()` switches dropout off and makes batch-norm use its running
// statistics; `module->train()` switches them back. Evaluation inside a
// training loop must end with the module (or an object that holds it) set
// back to training before the next training step, or the rest of training
// runs with dropout off and batch-norm frozen. Modules are told apart by
// their object paths (ObjectPaths.h): `m->backbone->eval()` is not undone by
// `m->head->train()`, and is by `m->train()`.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_ANALYSIS_MODERESTORE_H
#define TORCH_TIDY_ANALYSIS_MODERESTORE_H

#include "checks/analysis/FunctionFlow.h"
#include "checks/analysis/ModuleMode.h"
#include "checks/analysis/ObjectPaths.h"
#include "clang/AST/ASTContext.h"
#include "llvm/ADT/DenseMap.h"

#include <memory>

namespace torch_tidy::analysis {

/// One mode change, with the module as the calling function names it.
struct ModeEffect {
  ModuleMode Mode = ModuleMode::None;
  ObjectPath Module;
  /// For a `train(flag)` whose flag the function takes from its caller,
  /// that parameter: the call of the function decides the mode.
  ModeFlag Flag;
};

/// The mode changes of a function's calls, read once per call.
class ModeEffects {
public:
  explicit ModeEffects(clang::ASTContext &Ctx) : Ctx(Ctx) {}

  /// What \p Call does to modules' modes, in order: `m->eval()`,
  /// `m->train(false)`, `m->train()`; for a function of the unit, the
  /// changes its body makes (three calls deep), with the modules as the
  /// caller names them, and a flag the function takes read from the call
  /// (`set_eval(true)` running `net->train(!eval)` sets evaluation mode).
  llvm::ArrayRef<ModeEffect> of(const clang::Stmt *Call);

  /// The mode \p Module is left in after \p Call: a change of it or of an
  /// object that holds it counts, and so does a train() of a module that
  /// is not known (it may be any); None when the call changes neither.
  ModuleMode leaves(const clang::Stmt *Call, const ObjectPath &Module);

  /// The first change \p Call makes that covers \p Module (as leaves()
  /// counts them): Train for a call that sets it training before anything
  /// else (a training step that starts with `model->train()`); None when it
  /// changes nothing that covers it.
  ModuleMode setsFirst(const clang::Stmt *Call, const ObjectPath &Module);

  /// The modules \p Call leaves in evaluation mode (known paths only).
  llvm::SmallVector<ObjectPath, 1> leftInEval(const clang::Stmt *Call);

  clang::ASTContext &context() const { return Ctx; }
  /// The flow of \p Function (cached for the unit).
  const FunctionFlow &flowOf(const clang::FunctionDecl *Function);

private:
  /// The changes of \p Call, made in the body of \p In (null: the
  /// caller's own), in \p In's terms.
  void collect(const clang::CallExpr *Call, const clang::FunctionDecl *In,
               unsigned Depth, llvm::SmallVectorImpl<ModeEffect> &Out);
  clang::ASTContext &Ctx;
  llvm::DenseMap<const clang::Stmt *, llvm::SmallVector<ModeEffect, 1>> Cache;
  /// The changes each body makes, as it names the modules.
  llvm::DenseMap<const clang::Stmt *, llvm::SmallVector<ModeEffect, 2>> BodyCache;
  llvm::DenseMap<const clang::FunctionDecl *, std::unique_ptr<FunctionFlow>> Flows;
};

/// The calls of \p Loop (its function's own, not those of lambdas it
/// defines) that run a training step of \p Module: an optimizer step whose
/// optimizer may hold the module's parameters (optimizedModules), or a
/// call of a function of the unit that trains (callTrains) and is handed
/// the module or an object that holds or is part of it (a method called on
/// `this` counts for a member of `this`; a lambda of the unit, when its
/// body names the module).
llvm::SmallVector<const clang::Stmt *, 4>
trainingStepsOf(const ObjectPath &Module, const clang::Stmt *Loop,
                clang::ASTContext &Ctx);

/// The steps among \p Steps that \p Eval (a call that leaves \p Module in
/// evaluation mode) reaches along some path of \p Flow with nothing on the
/// way that leaves the module training (nor another call that leaves it in
/// evaluation mode, which answers for that path itself). A step that sets
/// the module to training itself first (`train_epoch(model)` that calls
/// `model->train()`) is not reached; nor is a method of the same object
/// whose body sets the mode of that member module before each training
/// step of its own on every path from its entry (a round that collects a
/// rollout in evaluation mode, then calls `exploiter_->train()` and
/// updates): the mode the call is entered in never reaches its training.
llvm::SmallVector<const clang::Stmt *, 2>
stepsReachedInEvalMode(const clang::Stmt *Eval, const ObjectPath &Module,
                       llvm::ArrayRef<const clang::Stmt *> Steps,
                       const FunctionFlow &Flow, ModeEffects &Effects);

/// Whether, after \p Eval in the body of \p Loop, a call under a condition
/// that fails only on the loop's last iteration leaves \p Module training
/// (`if (epoch != epochs) model->train();` in `for (...; epoch <= epochs;
/// ++epoch)`): the path that skips it ends the loop, and no step follows.
/// The condition compares the loop's counter with the bound its own
/// condition compares it with (`!=`, or `<` with the counter first, or
/// `counter + 1 < bound` when the loop runs while `counter < bound`), and
/// the loop counts up.
bool restoredUnlessLastIteration(const clang::Stmt *Eval,
                                 const ObjectPath &Module,
                                 const clang::Stmt *Loop, ModeEffects &Effects,
                                 clang::ASTContext &Ctx);

/// Whether \p Body stops the training of \p Module's parameters: a loop over
/// the parameters of the module (or of a part of it, or of an object that
/// holds it) that calls `requires_grad_(false)` or `set_requires_grad(false)`
/// on them. Evaluation mode is then part of freezing it on purpose.
bool freezesParameters(const clang::Stmt *Body, const ObjectPath &Module,
                       const clang::ASTContext &Ctx);

/// Whether \p Module's parameters are frozen when \p At runs: a loop over
/// the parameters of the module (or of an object that holds it) that sets
/// `requires_grad_(false)` / `set_requires_grad(false)` on them runs before
/// \p At in its function on every path (a statement of a block around
/// \p At, or of the branch that a constant condition takes, as a toggling
/// macro's `if (false) {...} else {...}` expands), and no loop over those
/// parameters that may set it back (to `true`, or to a value not known)
/// comes between. The module's own parameters then record no graph there.
bool parametersFrozenAt(const clang::Stmt *At, const ObjectPath &Module,
                        clang::ASTContext &Ctx);

} // namespace torch_tidy::analysis

#endif
