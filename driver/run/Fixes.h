//===--- Fixes.h - stages 5 and 7: the fixes --------------------*- C++ -*-===//
//
// With --fix (and no compiler errors, unless --fix-errors), the fixes of
// every finding are merged and checked first, without writing (the outputs
// say which were applied and read the files as they were), and written
// last. A file that changed since it was analysed is left alone.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_DRIVER_RUN_FIXES_H
#define TORCH_TIDY_DRIVER_RUN_FIXES_H

#include "driver/Options.h"
#include "driver/report/Findings.h"
#include "driver/run/Setup.h"
#include "fixits/ApplyFixes.h"

#include <vector>

namespace torch_tidy {

struct RunFixes {
  /// Compiler errors and no --fix-errors: no fix is applied.
  bool Disabled = false;
  /// The fixes are to be written (--fix, and not disabled).
  bool Pending = false;
  std::vector<FixRequest> Requests; ///< one per finding, when fixing
  ApplyOptions Apply;
  /// What applying does (once write() ran, what it did).
  FixReport Report;
  /// Per finding: 0 no fix, 1 applied, -1 not applied (for the text output).
  std::vector<int> State;

  /// Writes the fixes, and records what became of them.
  void write();
};

/// Stage 5: the fixes of \p Findings, checked but not written yet.
RunFixes planFixes(const DriverOptions &Opts, RunSetup &Setup,
                   const std::vector<Finding> &Findings, SourceFiles &Sources,
                   const std::vector<TUResult> &Results);

} // namespace torch_tidy

#endif
