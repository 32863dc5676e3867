//===--- TextReport.h - diagnostics as clang-tidy prints them ---*- C++ -*-===//
//
// clang-tidy's text output, source line, caret, ranges and fix-it hints
// included, so that editors and scripts that read clang-tidy read us.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_DRIVER_REPORT_TEXTREPORT_H
#define TORCH_TIDY_DRIVER_REPORT_TEXTREPORT_H

#include "driver/report/Findings.h"

namespace torch_tidy {

/// Prints \p Findings to stdout. \p FixedOffsets holds, per finding, whether
/// its fix was applied (a "FIX-IT applied" note follows it), or is empty.
void printText(const std::vector<Finding> &Findings,
               const std::vector<int> &FixState, bool UseColor);

/// clang-tidy's summary of what was suppressed, on stderr.
void printSuppressionStats(const clang::tidy::ClangTidyStats &Stats);

} // namespace torch_tidy

#endif
