//===--- GraphAccumulationCheck.h - torch-graph-accumulation --------------===//
#ifndef TORCH_TIDY_CHECKS_GRAPHACCUMULATIONCHECK_H
#define TORCH_TIDY_CHECKS_GRAPHACCUMULATIONCHECK_H

#include "checks/GrowthDiagnostics.h"
#include "checks/analysis/History.h"
#include "clang-tidy/ClangTidyCheck.h"

namespace torch_tidy {

/// Flags a tensor that outlives the loop iteration and takes on autograd
/// history every iteration: a running total (`acc += loss`,
/// `acc = acc + loss`, `acc.add_(loss)`, `acc = torch::cat({acc, t})`, an EMA)
/// or a recurrent state fed back into a module (`h = cell(x, h)`).
class GraphAccumulationCheck : public clang::tidy::ClangTidyCheck {
public:
  GraphAccumulationCheck(llvm::StringRef Name,
                         clang::tidy::ClangTidyContext *Context);
  bool isLanguageVersionSupported(const clang::LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus;
  }
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void storeOptions(clang::tidy::ClangTidyOptions::OptionMap &Opts) override;
  void onStartOfTranslationUnit() override { Facts.reset(); }

private:
  void report(const clang::Expr *Write, const analysis::Lifetime &Life,
              const clang::ValueDecl *Target,
              llvm::ArrayRef<const clang::Expr *> Parts, bool Recurrent,
              analysis::HistoryAnalysis &History);

  const analysis::HistoryOptions HistoryOpts;
  const NodeOnlyFindings NodeOnly;
  analysis::TranslationUnitFacts Facts;
};

} // namespace torch_tidy

#endif
