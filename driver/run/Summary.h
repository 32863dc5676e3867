//===--- Summary.h - stage 8: summary and exit code -------------*- C++ -*-===//

#ifndef TORCH_TIDY_DRIVER_RUN_SUMMARY_H
#define TORCH_TIDY_DRIVER_RUN_SUMMARY_H

#include "driver/Options.h"
#include "driver/run/Fixes.h"
#include "driver/run/Outputs.h"
#include "driver/run/Units.h"

namespace torch_tidy {

/// Stage 8: prints what was fixed, what failed and (unless --quiet) the
/// counts on stderr, and returns the exit code: ExitToolFailure for a unit
/// that failed or did not compile and for a fix that could not be written,
/// else ExitFindings when a finding is an error, else ExitClean.
int summarise(const DriverOptions &Opts, const std::vector<TUResult> &Results,
              const UnitSelection &Selection, const RunFindings &Found,
              const RunFixes &Fixes);

} // namespace torch_tidy

#endif
