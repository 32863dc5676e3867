//===--- ModuleMode.h - Is a module in evaluation mode here? --------------===//
//
// Evaluation code is code that runs a model in evaluation mode: after
// `module->eval()` (or `train(false)`) on every path in its function, with
// no `train()` since; or, for a module held as a member, in a class that puts
// it in evaluation mode once (a constructor, `load()`, `setup()`) and never
// back into training. Mode is per object, not per thread: it is asked of the
// module a forward pass runs.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_ANALYSIS_MODULEMODE_H
#define TORCH_TIDY_ANALYSIS_MODULEMODE_H

#include "checks/analysis/CallSites.h"
#include "checks/analysis/FunctionFlow.h"
#include "checks/analysis/Names.h"
#include "clang/AST/ASTContext.h"

namespace torch_tidy::analysis {

/// What a statement does to a module's mode: `m->eval()` / `m->train(false)`
/// (evaluation) or `m->train()` (training).
enum class ModuleMode { None, Eval, Train };
ModuleMode modeSetBy(const clang::Stmt *S, const clang::ASTContext &Ctx);

/// A mode flag that a function takes from its caller: `eval` in
/// `net->train(!eval)` of `set_eval(bool eval)`; the parameter, and whether
/// the call reads it negated.
struct ModeFlag {
  const clang::ParmVarDecl *Param = nullptr;
  bool Negated = false;
  explicit operator bool() const { return Param != nullptr; }
};

/// For \p Set, a `train(flag)` call in the body of \p Def, the parameter of
/// \p Def its flag is (negated or not); empty when it is none.
ModeFlag modeFlagOf(const clang::CallExpr *Set, const clang::FunctionDecl *Def);

/// The mode a `train(flag)` reading \p Flag sets when its function is
/// called by \p Call: Eval or Train when the call passes a constant, None
/// when not known.
ModuleMode modeAtCall(const ModeFlag &Flag, const clang::CallExpr *Call,
                      const clang::ASTContext &Ctx);

/// \p Flag as \p Call's own function \p Caller passes it on: when the
/// argument is itself a parameter of \p Caller (negated or not), that
/// parameter; empty otherwise.
ModeFlag modeFlagPassedOn(const ModeFlag &Flag, const clang::CallExpr *Call,
                          const clang::FunctionDecl *Caller);

/// What a statement does to a module's mode, directly or through a helper
/// function whose body is in the unit (`_model_eval()` that calls
/// `model_->eval()`, `set_eval(true)` that calls `net->train(!eval)`): the
/// mode, and the module as the statement's function names it when that is
/// known. With \p For, what it does to that module, when the helper changes
/// several.
struct ModeChange {
  ModuleMode Mode = ModuleMode::None;
  const clang::ValueDecl *Module = nullptr;
  bool ModuleKnown = false;
};
ModeChange modeChangeBy(const clang::Stmt *S, const clang::ASTContext &Ctx,
                        const clang::ValueDecl *For = nullptr);

/// The module object a call is made on: `model` for `model->eval()`,
/// `model.eval()`, `model->forward(x)`, `model(x)`, `this->net->eval()`.
const clang::ValueDecl *moduleOf(const clang::Expr *Object);

/// The object expression of the forward call \p Forward.
const clang::Expr *forwardObject(const clang::Expr *Forward);

/// The `eval()` call that puts the module of \p Forward in evaluation mode
/// when the statement \p At of \p Flow's function runs (\p Forward itself,
/// or the lambda that contains it): the nearest mode change of that module
/// on every path before \p At is an eval(); or the module is a member that
/// its class only ever sets to evaluation mode (and \p At's function does
/// not change). nullptr when it is not known to be in evaluation mode.
/// With \p Callers and \p FlowOf (the flow of a function), a module that is
/// a parameter of the function and that no path before \p At changes has
/// the mode its callers leave it in: in evaluation mode when every call site
/// in the unit passes one in evaluation mode there (`model->eval();
/// visualize(model);`), a few calls deep. \p Names: the ReadyMethods guess,
/// for the methods where a class sets up its member modules.
const clang::Stmt *
evalModeAt(const clang::Expr *Forward, const clang::Stmt *At,
           const FunctionFlow *Flow, clang::ASTContext &Ctx,
           const CallSites *Callers = nullptr,
           llvm::function_ref<const FunctionFlow *(const clang::FunctionDecl *)>
               FlowOf = nullptr,
           const NameGuesses &Names = defaultNameGuesses());

/// Whether the module \p Object names is in training mode wherever
/// \p Function uses it: a local variable of the function (a module is built
/// in training mode) that no statement of the function puts in evaluation
/// mode, directly or through a helper whose body is in the unit.
bool trainingThroughout(const clang::Expr *Object,
                        const clang::FunctionDecl *Function,
                        const clang::ASTContext &Ctx);

/// Whether \p S, in the body of \p Function, runs only in the mode
/// \p Mode is not: it is in a branch of `if (is_training())` (or of
/// `if (!is_training())`) that the module's mode \p Mode does not take.
bool inBranchNotTakenIn(ModuleMode Mode, const clang::Stmt *S,
                        const clang::FunctionDecl *Function,
                        clang::ASTContext &Ctx);

} // namespace torch_tidy::analysis

#endif
