//===--- HistoryOptions.cpp - The options of the checks that ask H --------===//

#include "checks/HistoryOptions.h"
#include "checks/analysis/Summaries.h"

#include "llvm/ADT/StringSet.h"

#include <mutex>

namespace torch_tidy {

analysis::HistoryOptions
readHistoryOptions(const clang::tidy::ClangTidyCheck::OptionsView &Options,
                   std::string &Error) {
  analysis::HistoryOptions Values;
  Values.SummariesFile = Options.getLocalOrGlobal("FunctionSummaries", "");
  if (!Values.SummariesFile.empty()) {
    std::string Why;
    Values.Summaries = analysis::loadSummaries(Values.SummariesFile, Why);
    // Said once, not by every check that reads it.
    static std::mutex Lock;
    static llvm::StringSet<> Reported;
    std::lock_guard<std::mutex> Guard(Lock);
    if (!Values.Summaries && Reported.insert(Values.SummariesFile).second)
      Error = Why;
  }
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
  Options.store(Opts, "FunctionSummaries", Values.SummariesFile);
}

} // namespace torch_tidy
