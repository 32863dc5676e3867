//===--- Outputs.h - stages 4 and 6: findings, outputs ----------*- C++ -*-===//
//
// Stage 4 merges the results of every unit into one list of findings (a
// diagnostic of a shared header once), fingerprints them, records them with
// --write-baseline and drops those --baseline accepts. Stage 6 writes every
// output: the text or JSON on stdout, --export-fixes, --export-sarif.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_DRIVER_RUN_OUTPUTS_H
#define TORCH_TIDY_DRIVER_RUN_OUTPUTS_H

#include "driver/Options.h"
#include "driver/report/Findings.h"
#include "driver/run/Setup.h"
#include "driver/run/Units.h"

#include <string>
#include <vector>

namespace torch_tidy {

struct RunFindings {
  SourceFiles Sources;
  std::string Root; ///< paths in SARIF and baselines are relative to it
  std::vector<Finding> Findings;
  unsigned Baselined = 0; ///< accepted by --baseline, so not reported
};

/// Stage 4. False with \p Error set when a baseline cannot be read or written.
bool collectFindings(const DriverOptions &Opts,
                     const std::vector<TUResult> &Results,
                     const UnitSelection &Selection, RunFindings &Out,
                     std::string &Error);

/// Stage 6. \p FixState says per finding whether its fix is applied (for
/// the text output). False with \p Error set when a file cannot be written.
bool writeOutputs(const DriverOptions &Opts, RunSetup &Setup,
                  RunFindings &Found, const std::vector<int> &FixState,
                  const std::vector<TUResult> &Results, const char *Argv0,
                  std::string &Error);

} // namespace torch_tidy

#endif
