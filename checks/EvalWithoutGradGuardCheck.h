//===--- EvalWithoutGradGuardCheck.h - torch-eval-without-grad-guard ------===//
#ifndef TORCH_TIDY_CHECKS_EVALWITHOUTGRADGUARDCHECK_H
#define TORCH_TIDY_CHECKS_EVALWITHOUTGRADGUARDCHECK_H

#include "checks/analysis/History.h"
#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/Support/Regex.h"

#include <map>

namespace torch_tidy {

/// Flags a model's forward pass run in evaluation code (after
/// `module->eval()`, or in a function named like an evaluation) with no
/// torch::NoGradGuard or c10::InferenceMode active, when its result is never
/// differentiated; once per function, at the first such call.
class EvalWithoutGradGuardCheck : public clang::tidy::ClangTidyCheck {
public:
  EvalWithoutGradGuardCheck(llvm::StringRef Name,
                            clang::tidy::ClangTidyContext *Context);
  bool isLanguageVersionSupported(const clang::LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus;
  }
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void storeOptions(clang::tidy::ClangTidyOptions::OptionMap &Opts) override;
  void onStartOfTranslationUnit() override;
  void onEndOfTranslationUnit() override;

private:
  struct Finding {
    const clang::Expr *Forward;
    const clang::Stmt *EvalCall; ///< the eval() that made this evaluation code
    clang::ASTContext *Ctx;
  };
  void report(const clang::FunctionDecl *Function, const Finding &F);

  const std::string EvalFunctions;
  const std::string GuardType;
  const analysis::HistoryOptions HistoryOpts;
  /// torch-unnamed-grad-guard runs too: its fix names a temporary guard.
  const bool NamesTemporaryGuards;
  llvm::Regex EvalFunctionsRegex;
  analysis::TranslationUnitFacts Facts;
  /// The first unguarded forward of each function, reported at the end.
  std::map<const clang::FunctionDecl *, Finding> Findings;
};

} // namespace torch_tidy

#endif
