//===--- MissingZeroGradCheck.h - torch-missing-zero-grad -----------------===//
#ifndef TORCH_TIDY_CHECKS_MISSINGZEROGRADCHECK_H
#define TORCH_TIDY_CHECKS_MISSINGZEROGRADCHECK_H

#include "checks/analysis/FunctionFlow.h"
#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <memory>

namespace torch_tidy {

/// Flags a backward pass in a loop that steps an optimizer, when nothing
/// zeroes that optimizer's gradients between two of its steps, so that
/// every step applies the sum of all the gradients computed so far.
class MissingZeroGradCheck : public clang::tidy::ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  bool isLanguageVersionSupported(const clang::LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus;
  }
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onStartOfTranslationUnit() override;

private:
  const analysis::FunctionFlow &flowOf(const clang::FunctionDecl *Function,
                                       clang::ASTContext &Ctx);
  llvm::DenseMap<const clang::FunctionDecl *,
                 std::unique_ptr<analysis::FunctionFlow>>
      Flows;
  /// The backward passes reported: one finding each.
  llvm::DenseSet<const clang::CallExpr *> Reported;
};

} // namespace torch_tidy

#endif
