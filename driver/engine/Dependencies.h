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

#include "llvm/ADT/StringMap.h"
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

/// What the files on disk are now, each file read at most once: a run that
/// checks the cache entries of many units against the same headers hashes
/// each header once. It answers for the moment each file was first asked
/// about, so it lives no longer than the cache look-ups of one run.
class FileStateMemo {
public:
  /// The content hash of \p Path now (see fileHash).
  const std::string &hash(llvm::StringRef Path);
  bool exists(llvm::StringRef Path);

private:
  llvm::StringMap<std::string> Hashes;
  llvm::StringMap<bool> Present;
};

/// Whether every file of a record made by recordDependencies is as it was
/// and every absent path still absent, asking \p Memo when given. A
/// malformed record is never unchanged.
bool dependenciesUnchanged(const llvm::json::Object &Record,
                           FileStateMemo *Memo = nullptr);

/// The files of such a record (path -> hash), for a record known to be well
/// formed; its absent paths go to \p Absent.
std::map<std::string, std::string>
recordedFiles(const llvm::json::Object &Record,
              std::vector<std::string> &Absent);

} // namespace torch_tidy

#endif
