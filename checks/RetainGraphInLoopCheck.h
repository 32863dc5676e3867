//===--- RetainGraphInLoopCheck.h - torch-retain-graph-in-loop ------------===//
#ifndef TORCH_TIDY_CHECKS_RETAINGRAPHINLOOPCHECK_H
#define TORCH_TIDY_CHECKS_RETAINGRAPHINLOOPCHECK_H

#include "checks/analysis/Names.h"
#include "clang-tidy/ClangTidyCheck.h"

#include <memory>

namespace torch_tidy {

/// Flags backward() or autograd::grad() with retain_graph=true inside a loop,
/// unless a later backward pass in the same iteration walks the same graph.
class RetainGraphInLoopCheck : public clang::tidy::ClangTidyCheck {
public:
  RetainGraphInLoopCheck(llvm::StringRef Name,
                         clang::tidy::ClangTidyContext *Context);
  bool isLanguageVersionSupported(const clang::LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus;
  }
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void storeOptions(clang::tidy::ClangTidyOptions::OptionMap &Opts) override;

private:
  /// The guesses from names: which methods run a forward pass.
  std::shared_ptr<const analysis::NameGuesses> Names;
};

} // namespace torch_tidy

#endif
