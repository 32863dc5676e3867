//===--- History.h - H: does this expression carry autograd history? ------===//
//
// A value carries autograd history when autograd recorded how it was
// computed from something that requires gradients: the output of a module's
// forward, a module parameter, a tensor made with requires_grad(true), and
// any differentiable op with such an operand. History is cut by detach(),
// item(), data(), non-differentiable results (argmax, comparisons, integer and
// bool conversions, sizes) and by a no-grad guard (G) active where the op
// runs. Values are followed through local variables along the paths that
// reach the use (Clang's CFG), through std::tie and structured bindings,
// and into functions defined in the same translation unit.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_ANALYSIS_HISTORY_H
#define TORCH_TIDY_ANALYSIS_HISTORY_H

#include "checks/analysis/FunctionFlow.h"
#include "checks/analysis/GradGuard.h"
#include "clang/AST/ASTContext.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <memory>

namespace torch_tidy::analysis {

enum class Carries { No, Yes, Unknown };

/// Whether \p RD is torch::nn::Module, torch::jit::Module, a
/// torch::nn::ModuleHolder or AnyModule, or a class derived from one.
bool isModuleClass(const clang::CXXRecordDecl *RD);

/// Whether \p E runs a module's forward: `m->forward(x)`, `m(x)` through a
/// ModuleHolder, `seq->forward(x)`, `any.forward(x)`, `jit_module.forward(...)`.
bool isForwardCall(const clang::Expr *E);

/// Whether the call \p E returns a value without history whatever its
/// operands carry: detach(), item(), argmax, comparisons, integer and bool
/// conversions, ...
bool cutsHistory(const clang::Expr *E, const clang::ASTContext &Ctx);

/// The H question, for one translation unit. Answers are cached.
class HistoryAnalysis {
public:
  HistoryAnalysis(clang::ASTContext &Ctx, const CallSites *Callers,
                  bool AssumeUnknownCarries);

  /// H for \p E, with unknown origins answered by the option.
  bool carriesHistory(const clang::Expr *E);
  /// H for \p E, unknown origins kept apart.
  Carries history(const clang::Expr *E);

  clang::ASTContext &context() const { return Ctx; }

  /// The flow of the function that contains \p S (cached).
  const FunctionFlow *flowAt(const clang::Stmt *S);

private:
  Carries of(const clang::Expr *E);
  Carries ofCall(const clang::CallExpr *Call);
  Carries ofDecl(const clang::ValueDecl *D, const clang::Expr *Use);
  Carries ofField(const clang::FieldDecl *Field);
  Carries ofFunctionResult(const clang::FunctionDecl *FD,
                           const clang::CallExpr *Call);
  Carries anyOf(llvm::ArrayRef<const clang::Expr *> Exprs);
  bool guarded(const clang::Expr *E);

  clang::ASTContext &Ctx;
  const CallSites *Callers;
  bool AssumeUnknownCarries;
  llvm::DenseMap<const clang::Expr *, Carries> Cache;
  llvm::DenseSet<const clang::Expr *> InProgress;
  /// How often a cycle was cut short; answers computed across one are not
  /// cached, since they may be partial.
  unsigned CycleHits = 0;
  llvm::DenseMap<const clang::FunctionDecl *, std::unique_ptr<FunctionFlow>> Flows;
  /// Arguments of the calls being followed into their callees.
  llvm::SmallVector<const clang::CallExpr *, 4> CallStack;
};

} // namespace torch_tidy::analysis


namespace torch_tidy::analysis {

/// The per-translation-unit answers a check builds once and asks often:
/// the call sites (for G) and the H cache. Reset at each new TU.
class TranslationUnitFacts {
public:
  void reset() {
    History.reset();
    Callers.reset();
  }
  const CallSites &callers(clang::ASTContext &Ctx) {
    if (!Callers)
      Callers = std::make_unique<CallSites>(Ctx);
    return *Callers;
  }
  HistoryAnalysis &history(clang::ASTContext &Ctx, bool AssumeUnknownCarries) {
    if (!History)
      History = std::make_unique<HistoryAnalysis>(Ctx, &callers(Ctx),
                                                  AssumeUnknownCarries);
    return *History;
  }

private:
  std::unique_ptr<CallSites> Callers;
  std::unique_ptr<HistoryAnalysis> History;
};

} // namespace torch_tidy::analysis

#endif
