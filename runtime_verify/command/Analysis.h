//===--- Analysis.h - what verify runs, and where ---------------*- C++ -*-===//
//
// Both ways of running verify (copies of a program, or a project's file in
// place) first run torch-tidy itself on the file, limited to the checks
// verify can run, and read back the findings it exports. They work in a
// folder of their own that goes away at the end unless it was asked for.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_RUNTIME_VERIFY_COMMAND_ANALYSIS_H
#define TORCH_TIDY_RUNTIME_VERIFY_COMMAND_ANALYSIS_H

#include "runtime_verify/instrument/Findings.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace torch_tidy::verify {

/// A folder for verify's files, removed on every way out unless kept.
class WorkFolder {
public:
  /// \p KeepDir (created, and kept) when given, else a new temporary folder.
  static llvm::Expected<WorkFolder> make(const std::string &KeepDir);
  WorkFolder(WorkFolder &&Other) noexcept;
  WorkFolder(const WorkFolder &) = delete;
  ~WorkFolder();

  const std::string &path() const { return Path; }

private:
  WorkFolder(std::string Path, bool Keep) : Path(std::move(Path)), Keep(Keep) {}
  std::string Path;
  bool Keep = false;
};

/// How to run torch-tidy on the file.
struct AnalysisRequest {
  std::string Self;     ///< the torch-tidy binary
  std::string File;     ///< the file to analyse
  std::string BuildDir; ///< -p BUILD; empty: Flags after "--"
  std::vector<std::string> Flags;
  std::string WorkDir;   ///< where the findings and the log go
  std::string ShownName; ///< the file as error messages name it
  bool ShowLog = false;  ///< name the log in error messages
};

/// Runs torch-tidy with the checks verify can run and returns the findings
/// in \p Request.File (whose bytes are \p Code), in file order.
llvm::Expected<std::vector<Finding>> analyse(const AnalysisRequest &Request,
                                             llvm::StringRef Code);

/// The flags \p BuildDir's compile_commands.json gives \p File, without the
/// compiler, the file and the output; -working-directory= first.
llvm::Expected<std::vector<std::string>> flagsFromDatabase(const std::string &BuildDir,
                                                           const std::string &File);

} // namespace torch_tidy::verify

#endif
