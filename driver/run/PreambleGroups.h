//===--- PreambleGroups.h - units that share a preamble ---------*- C++ -*-===//
//
// Part of stage 3: which units of a run share a precompiled preamble (the
// same leading directives and flags), so that one worker builds it while
// the others of its group wait. A preamble that no other unit of the run
// reads is not built by a run over several units: a cold CI run would pay
// for it and never read it.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_DRIVER_RUN_PREAMBLEGROUPS_H
#define TORCH_TIDY_DRIVER_RUN_PREAMBLEGROUPS_H

#include "driver/run/Setup.h"

#include <map>
#include <string>
#include <vector>

namespace torch_tidy {

/// Unit -> its group, for the groups of \p Units with two units or more.
std::map<std::string, std::string>
preambleGroups(RunSetup &Setup, const std::vector<std::string> &Units);

} // namespace torch_tidy

#endif
