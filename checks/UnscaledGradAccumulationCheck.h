//===--- UnscaledGradAccumulationCheck.h - torch-unscaled-grad-accumulation ===//
#ifndef TORCH_TIDY_CHECKS_UNSCALEDGRADACCUMULATIONCHECK_H
#define TORCH_TIDY_CHECKS_UNSCALEDGRADACCUMULATIONCHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseSet.h"

namespace torch_tidy {

/// Flags a backward pass run every iteration of a loop whose optimizer
/// steps only once every N iterations, when neither the loss nor the
/// gradients are divided by N, so that each update is N times larger than
/// intended.
class UnscaledGradAccumulationCheck : public clang::tidy::ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  bool isLanguageVersionSupported(const clang::LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus;
  }
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onStartOfTranslationUnit() override { Reported.clear(); }

private:
  /// The backward passes reported: one finding each.
  llvm::DenseSet<const clang::CallExpr *> Reported;
};

} // namespace torch_tidy

#endif
