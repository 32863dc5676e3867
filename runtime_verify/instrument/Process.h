//===--- Process.h - run a child process with a timeout -------------------===//
#ifndef TORCH_TIDY_RUNTIME_VERIFY_PROCESS_H
#define TORCH_TIDY_RUNTIME_VERIFY_PROCESS_H

#include <string>
#include <utility>
#include <vector>

namespace torch_tidy {
namespace verify {

/// How a child process ended.
struct ProcessResult {
  bool Started = false;  ///< false: it could not be started (see Error)
  bool TimedOut = false; ///< killed after the time limit
  int ExitCode = -1;     ///< valid when it exited normally
  int Signal = 0;        ///< non-zero when a signal ended it
  std::string Error;

  bool succeeded() const { return Started && !TimedOut && Signal == 0 && ExitCode == 0; }
  /// "exit status 3", "killed by signal 11 (Segmentation fault)", ...
  std::string describe() const;
};

struct ProcessOptions {
  std::vector<std::pair<std::string, std::string>> SetEnv; ///< added to ours
  std::string StdoutPath; ///< empty: inherit
  std::string StderrPath; ///< empty: inherit; "=stdout": same as stdout
  std::string WorkingDir; ///< empty: ours
  unsigned TimeoutSeconds = 0; ///< 0: none
};

/// Runs Argv[0] (looked up in PATH) with Argv and waits for it.
ProcessResult runProcess(const std::vector<std::string> &Argv, const ProcessOptions &Options);

/// The process id of the child runProcess is waiting for, or 0: a signal
/// handler may forward a signal to it.
int currentChildPid();

} // namespace verify
} // namespace torch_tidy

#endif
