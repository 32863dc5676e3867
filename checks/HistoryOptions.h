//===--- HistoryOptions.h - The options of the checks that ask H ----------===//
//
// Every check that asks whether a value carries autograd history reads the
// same two options, so that one `.clang-tidy` setting means the same thing
// to all of them.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_CHECKS_HISTORYOPTIONS_H
#define TORCH_TIDY_CHECKS_HISTORYOPTIONS_H

#include "checks/analysis/History.h"
#include "clang-tidy/ClangTidyCheck.h"

namespace torch_tidy {

/// `AssumeUnknownTensorsCarryHistory` (default false) and
/// `OpaqueCallsPassHistory` (default true).
analysis::HistoryOptions
readHistoryOptions(const clang::tidy::ClangTidyCheck::OptionsView &Options);

void storeHistoryOptions(const clang::tidy::ClangTidyCheck::OptionsView &Options,
                         clang::tidy::ClangTidyOptions::OptionMap &Opts,
                         const analysis::HistoryOptions &Values);

} // namespace torch_tidy

#endif
