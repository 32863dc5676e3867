//===--- ProjectSummaries.h - The summaries a project run leaves -*- C++ -*-===//
//
// A project run (`torch-tidy -p BUILD`) summarises every unit first and
// keeps what it found in one file per compilation database, in the cache
// folder: each unit's summaries (SummaryData.h) with the content hashes of
// its main file and of the headers of the user's it read, as they were
// summarised. A later run on a few files, and torch-clangd, read it back;
// the entries of a unit one of whose files has changed since are left out,
// never trusted.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_CHECKS_ANALYSIS_PROJECTSUMMARIES_H
#define TORCH_TIDY_CHECKS_ANALYSIS_PROJECTSUMMARIES_H

#include "checks/analysis/SummaryData.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace torch_tidy::analysis {

/// One unit's part: its main file (absolute), that file's content hash
/// when it was summarised (sourceHash), the other files of the user's it
/// read (headers, absolute) with theirs, and its summaries.
struct UnitSummaries {
  std::string File;
  std::string Hash;
  std::map<std::string, std::string> Headers;
  FunctionSummaries Summaries;
};

/// The content hash the file stores for a source file; "" when it cannot be
/// read.
std::string sourceHash(llvm::StringRef Path);

/// The file a project run over the compilation database \p Database (its
/// compile_commands.json or compile_flags.txt) keeps its summaries in,
/// under the cache folder \p CacheFolder: the same for every run that names
/// that database, by whatever path.
std::string projectSummariesFile(llvm::StringRef CacheFolder,
                                 llvm::StringRef Database);

/// The text of a project summaries file.
std::string projectSummariesText(llvm::StringRef Database,
                                 const std::vector<UnitSummaries> &Units);

/// A project summaries file as read now.
struct ProjectSummaries {
  /// The summaries of the units whose main files are unchanged, merged.
  std::shared_ptr<const FunctionSummaries> Summaries;
  /// The compilation database of the run that wrote it.
  std::string Database;
  /// How many units it has; the main files of those left out because a
  /// file they read changed since they were summarised (or is gone), each
  /// followed by ` (through HEADER)` when that file is not the main file.
  unsigned Units = 0;
  std::vector<std::string> Changed;
};

/// Reads the project summaries file \p Path; null with \p Error when it
/// cannot be read or parsed. The file is parsed again only when it changes,
/// and each source file hashed again only when its size or time changes.
std::shared_ptr<const ProjectSummaries>
loadProjectSummaries(llvm::StringRef Path, std::string &Error);

} // namespace torch_tidy::analysis

#endif
