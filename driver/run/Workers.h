//===--- Workers.h - one process per translation unit -----------*- C++ -*-===//
//
// Runs translation units in worker processes, N at a time: a crash or an
// out-of-memory in one is that unit's failure while the others finish.
// Units whose results the run found already (in the result cache) start
// no worker; they only count for the progress line.
// Units that share a preamble wait for the one that builds it. Results come
// back in the order of the units, whatever -j is.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_DRIVER_RUN_WORKERS_H
#define TORCH_TIDY_DRIVER_RUN_WORKERS_H

#include "driver/engine/Engine.h"

#include <map>
#include <optional>

namespace torch_tidy {

struct WorkerPlan {
  std::string Executable;
  /// Arguments for every worker; the unit's file and the result path are
  /// added per worker.
  std::vector<std::string> CommonArgs;
  std::vector<std::string> TrailingArgs; // after the file ("--" and flags)
  /// Arguments for the worker of one unit only (after the common ones, so
  /// that they win).
  std::map<std::string, std::vector<std::string>> UnitArgs;
  /// Units that share a precompiled preamble -> their group. The first unit
  /// of a group to start builds the preamble (it is given BuilderArgs too);
  /// the others wait for it while units of other groups go on.
  std::map<std::string, std::string> PreambleGroup;
  std::vector<std::string> BuilderArgs;
  unsigned Jobs = 1;
  bool ShowProgress = false;
};

/// The results of \p Files, in order: those of \p Found (by index, when
/// given and set) as they are, the others from workers.
std::vector<TUResult>
runWorkers(const WorkerPlan &Plan, const std::vector<std::string> &Files,
           std::vector<std::optional<TUResult>> Found = {});

} // namespace torch_tidy

#endif
