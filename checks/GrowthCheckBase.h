//===--- GrowthCheckBase.h - What the growth checks share as checks -------===//
//
// torch-graph-accumulation and torch-graph-in-container read the same
// options (how H treats what it does not know, how findings that keep only
// graph nodes are reported) and keep the same per-unit facts.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_CHECKS_GROWTHCHECKBASE_H
#define TORCH_TIDY_CHECKS_GROWTHCHECKBASE_H

#include "checks/GrowthDiagnostics.h"
#include "checks/analysis/History.h"
#include "clang-tidy/ClangTidyCheck.h"

namespace torch_tidy {

class GrowthCheckBase : public clang::tidy::ClangTidyCheck {
public:
  GrowthCheckBase(llvm::StringRef Name, clang::tidy::ClangTidyContext *Context);
  bool isLanguageVersionSupported(const clang::LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus;
  }
  void storeOptions(clang::tidy::ClangTidyOptions::OptionMap &Opts) override;
  void onStartOfTranslationUnit() override { Facts.reset(HistoryOpts.Summaries); }

protected:
  /// Why the FunctionSummaries file could not be read (said once).
  std::string HistoryError;
  const analysis::HistoryOptions HistoryOpts;
  const NodeOnlyFindings NodeOnly;
  analysis::TranslationUnitFacts Facts;
};

} // namespace torch_tidy

#endif
