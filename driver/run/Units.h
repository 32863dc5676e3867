//===--- Units.h - stage 2: which units to analyse --------------*- C++ -*-===//
//
// The files given, or every unit of the compilation database; a header
// given on the command line is analysed through a unit that includes it (one
// that names a template the header declares, when it declares any: a
// template is analysed in its instantiations);
// this shard's part; minus the units that cannot be analysed at all (no
// such file, no such working directory) and those that cannot reach
// LibTorch when only torch-tidy's checks run.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_DRIVER_RUN_UNITS_H
#define TORCH_TIDY_DRIVER_RUN_UNITS_H

#include "base/UnitResult.h"
#include "driver/Options.h"
#include "driver/run/Setup.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace torch_tidy {

struct UnitSelection {
  /// The units to analyse (absolute paths), in the order they are reported.
  std::vector<std::string> Units;
  /// A unit chosen for the sake of headers given on the command line ->
  /// the files whose diagnostics it reports.
  std::map<std::string, std::set<std::string>> OnlyFiles;
  /// Units that failed before analysis, with the reason.
  std::vector<TUResult> Unusable;
  /// Units left out because they cannot reach LibTorch.
  unsigned Skipped = 0;
};

/// Stage 2. False with \p Error set when the run cannot go on.
bool selectUnits(const DriverOptions &Opts, RunSetup &Setup, UnitSelection &Out,
                 std::string &Error);

} // namespace torch_tidy

#endif
