//===--- EvalModeNotRestoredCheck.h - torch-eval-mode-not-restored --------===//
#ifndef TORCH_TIDY_CHECKS_EVALMODENOTRESTOREDCHECK_H
#define TORCH_TIDY_CHECKS_EVALMODENOTRESTOREDCHECK_H

#include "checks/analysis/FunctionFlow.h"
#include "checks/analysis/ModeRestore.h"
#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseMap.h"

#include <memory>

namespace torch_tidy {

/// Flags a module put in evaluation mode inside a training loop (by its
/// `eval()`, or by a function of the unit that leaves it so) and not set
/// back to training before the next training step, so that its dropout and
/// batch-norm layers stay in evaluation mode for the rest of training.
class EvalModeNotRestoredCheck : public clang::tidy::ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  bool isLanguageVersionSupported(const clang::LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus;
  }
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onStartOfTranslationUnit() override;

private:
  analysis::ModeEffects &effectsOf(clang::ASTContext &Ctx);
  std::unique_ptr<analysis::ModeEffects> Effects;
  clang::ASTContext *EffectsCtx = nullptr;
};

} // namespace torch_tidy

#endif
