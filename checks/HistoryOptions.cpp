//===--- HistoryOptions.cpp - The options of the checks that ask H --------===//

#include "checks/HistoryOptions.h"
#include "checks/analysis/SummaryData.h"

#include "llvm/ADT/StringSet.h"

#include <mutex>

namespace torch_tidy {

std::shared_ptr<const analysis::NameGuesses>
readNameGuesses(const clang::tidy::ClangTidyCheck::OptionsView &Options,
                std::string &Error) {
  std::string Why;
  auto Names = std::make_shared<const analysis::NameGuesses>(
      [&](const analysis::NameGuessOption &Option) {
        return Options.getLocalOrGlobal(Option.Option, Option.Default).str();
      },
      Why);
  // Said once, not by every check that reads it.
  static std::mutex Lock;
  static llvm::StringSet<> Reported;
  std::lock_guard<std::mutex> Guard(Lock);
  if (!Why.empty() && Reported.insert(Why).second)
    Error = Why;
  return Names;
}

void storeNameGuesses(const clang::tidy::ClangTidyCheck::OptionsView &Options,
                      clang::tidy::ClangTidyOptions::OptionMap &Opts,
                      const analysis::NameGuesses &Names) {
  for (const analysis::NameGuessOption *Option : analysis::guess::All)
    Options.store(Opts, Option->Option, Names.spelling(*Option));
}

analysis::HistoryOptions
readHistoryOptions(const clang::tidy::ClangTidyCheck::OptionsView &Options,
                   llvm::StringRef MainFile, std::string &Error) {
  analysis::HistoryOptions Values;
  Values.SummariesFile = Options.getLocalOrGlobal("FunctionSummaries", "");
  if (Values.SummariesFile.empty()) {
    Values.Summaries = analysis::defaultSummaries(MainFile);
  } else {
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
  std::string NamesError;
  Values.Names = readNameGuesses(Options, NamesError);
  if (Error.empty())
    Error = NamesError;
  return Values;
}

void storeHistoryOptions(const clang::tidy::ClangTidyCheck::OptionsView &Options,
                         clang::tidy::ClangTidyOptions::OptionMap &Opts,
                         const analysis::HistoryOptions &Values) {
  Options.store(Opts, "AssumeUnknownTensorsCarryHistory",
                Values.AssumeUnknownCarries);
  Options.store(Opts, "OpaqueCallsPassHistory", Values.OpaqueCallsPassHistory);
  Options.store(Opts, "FunctionSummaries", Values.SummariesFile);
  storeNameGuesses(Options, Opts, Values.names());
}

} // namespace torch_tidy
