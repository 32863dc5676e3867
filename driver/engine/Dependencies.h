//===--- Dependencies.h - what a cached artifact was made from --*- C++ -*-===//
//
// A cache entry (a unit's result, a precompiled preamble) records every file
// it was made from, by content hash, and every path that was looked up in
// vain (see AbsenceRecorder): a changed file, or a new file at one of those
// paths that would now be found instead, makes the entry stale.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_DRIVER_ENGINE_DEPENDENCIES_H
#define TORCH_TIDY_DRIVER_ENGINE_DEPENDENCIES_H

#include "llvm/Support/JSON.h"

#include <map>
#include <string>
#include <vector>

namespace torch_tidy {

/// {"files": [[path, hash]...], "absent": [path...]} for \p Files (path ->
/// content hash) and the \p Absent paths.
llvm::json::Object
recordDependencies(const std::map<std::string, std::string> &Files,
                   const std::vector<std::string> &Absent);

/// Whether every file of a record made by recordDependencies is as it was
/// and every absent path still absent. A malformed record is never
/// unchanged.
bool dependenciesUnchanged(const llvm::json::Object &Record);

/// The files of such a record (path -> hash), for a record known to be well
/// formed; its absent paths go to \p Absent.
std::map<std::string, std::string>
recordedFiles(const llvm::json::Object &Record,
              std::vector<std::string> &Absent);

} // namespace torch_tidy

#endif
