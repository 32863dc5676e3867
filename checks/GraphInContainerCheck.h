//===--- GraphInContainerCheck.h - torch-graph-in-container ---------------===//
#ifndef TORCH_TIDY_CHECKS_GRAPHINCONTAINERCHECK_H
#define TORCH_TIDY_CHECKS_GRAPHINCONTAINERCHECK_H

#include "checks/GrowthDiagnostics.h"
#include "checks/analysis/History.h"
#include "clang-tidy/ClangTidyCheck.h"

namespace torch_tidy {

/// Flags a tensor that carries autograd history stored into a container or
/// tensor buffer that outlives the loop iteration (push_back, emplace_back,
/// insert, emplace, push_front, m[k] = t, buf[i].copy_(t), buf.index_put_).
class GraphInContainerCheck : public clang::tidy::ClangTidyCheck {
public:
  GraphInContainerCheck(llvm::StringRef Name,
                        clang::tidy::ClangTidyContext *Context);
  bool isLanguageVersionSupported(const clang::LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus;
  }
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void storeOptions(clang::tidy::ClangTidyOptions::OptionMap &Opts) override;
  void onStartOfTranslationUnit() override { Facts.reset(); }

private:
  void report(const clang::Expr *Store, const analysis::Lifetime &Life,
              llvm::ArrayRef<const clang::Expr *> Carrying,
              analysis::HistoryAnalysis &History);

  const analysis::HistoryOptions HistoryOpts;
  const NodeOnlyFindings NodeOnly;
  analysis::TranslationUnitFacts Facts;
};

} // namespace torch_tidy

#endif
