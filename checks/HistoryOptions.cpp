//===--- HistoryOptions.cpp - The options of the checks that ask H --------===//

#include "checks/HistoryOptions.h"

namespace torch_tidy {

analysis::HistoryOptions
readHistoryOptions(const clang::tidy::ClangTidyCheck::OptionsView &Options) {
  analysis::HistoryOptions Values;
  Values.AssumeUnknownCarries =
      Options.get("AssumeUnknownTensorsCarryHistory", false);
  Values.OpaqueCallsPassHistory = Options.get("OpaqueCallsPassHistory", true);
  return Values;
}

void storeHistoryOptions(const clang::tidy::ClangTidyCheck::OptionsView &Options,
                         clang::tidy::ClangTidyOptions::OptionMap &Opts,
                         const analysis::HistoryOptions &Values) {
  Options.store(Opts, "AssumeUnknownTensorsCarryHistory",
                Values.AssumeUnknownCarries);
  Options.store(Opts, "OpaqueCallsPassHistory", Values.OpaqueCallsPassHistory);
}

} // namespace torch_tidy
