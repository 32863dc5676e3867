//===--- HistoryOptions.h - The options of the checks that ask H ----------===//
//
// Every check that asks whether a value carries autograd history reads the
// same three options, so that one `.clang-tidy` setting means the same thing
// to all of them.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_CHECKS_HISTORYOPTIONS_H
#define TORCH_TIDY_CHECKS_HISTORYOPTIONS_H

#include "checks/analysis/History.h"
#include "clang-tidy/ClangTidyCheck.h"

namespace torch_tidy {

/// The options of the guesses from names (analysis/Names.h), each read
/// locally or globally. \p Error says why one is invalid, the first time.
std::shared_ptr<const analysis::NameGuesses>
readNameGuesses(const clang::tidy::ClangTidyCheck::OptionsView &Options,
                std::string &Error);

void storeNameGuesses(const clang::tidy::ClangTidyCheck::OptionsView &Options,
                      clang::tidy::ClangTidyOptions::OptionMap &Opts,
                      const analysis::NameGuesses &Names);

/// `AssumeUnknownTensorsCarryHistory` (default false),
/// `OpaqueCallsPassHistory` (default true) and `FunctionSummaries` (a file
/// written by `torch-tidy --export-summaries`; default none, also read as a
/// global option; where none is named, the front end's own summaries for
/// the unit \p MainFile, see analysis::setDefaultSummaries), and the
/// guesses from names. \p Error says why the
/// summaries could not be read, the first time a file fails, or why a
/// guess's option is invalid.
analysis::HistoryOptions
readHistoryOptions(const clang::tidy::ClangTidyCheck::OptionsView &Options,
                   llvm::StringRef MainFile, std::string &Error);

void storeHistoryOptions(const clang::tidy::ClangTidyCheck::OptionsView &Options,
                         clang::tidy::ClangTidyOptions::OptionMap &Opts,
                         const analysis::HistoryOptions &Values);

} // namespace torch_tidy

#endif
