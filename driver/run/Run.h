//===--- Run.h - a check run over files or a whole project ------*- C++ -*-===//

#ifndef TORCH_TIDY_DRIVER_RUN_RUN_H
#define TORCH_TIDY_DRIVER_RUN_RUN_H

#include "driver/Options.h"

namespace torch_tidy {

/// Runs the checks as \p Opts says and reports; returns the exit code
/// (driver/ExitCodes.h).
int runChecks(DriverOptions &Opts, const char *Argv0);

} // namespace torch_tidy

#endif
