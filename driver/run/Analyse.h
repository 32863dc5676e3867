//===--- Analyse.h - stage 3: the units through the checks ------*- C++ -*-===//
//
// One unit given alone (an editor's or a script's single-file run) is
// analysed in this process; anything else in worker processes, one per
// unit, which are this binary started again with --torch-tidy-worker and
// the flags of workerArguments(). A unit whose result is in the result
// cache, nothing it depends on changed, is answered here without a worker.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_DRIVER_RUN_ANALYSE_H
#define TORCH_TIDY_DRIVER_RUN_ANALYSE_H

#include "base/UnitResult.h"
#include "driver/Options.h"
#include "driver/run/Setup.h"
#include "driver/run/Units.h"

#include <vector>

namespace torch_tidy {

/// Stage 3: the results of every selected unit, in order, then those that
/// could not be analysed. Decides whether preambles may be built.
std::vector<TUResult> analyseUnits(DriverOptions &Opts, RunSetup &Setup,
                                   UnitSelection &Selection, const char *Argv0);

/// A worker's whole run: analyses its one file and writes the result where
/// --torch-tidy-worker says. Returns the exit code.
int runAsWorker(const DriverOptions &Opts, RunSetup &Setup, const char *Argv0);

/// The running torch-tidy binary.
std::string selfExecutable(const char *Argv0);

} // namespace torch_tidy

#endif
