//===--- RetainGraphInLoopCheck.h - torch-retain-graph-in-loop ------------===//
#ifndef TORCH_TIDY_CHECKS_RETAINGRAPHINLOOPCHECK_H
#define TORCH_TIDY_CHECKS_RETAINGRAPHINLOOPCHECK_H

#include "clang-tidy/ClangTidyCheck.h"

namespace torch_tidy {

/// Flags backward() or autograd::grad() with retain_graph=true inside a loop,
/// unless a later backward pass in the same iteration walks the same graph.
class RetainGraphInLoopCheck : public clang::tidy::ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  bool isLanguageVersionSupported(const clang::LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus;
  }
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace torch_tidy

#endif
