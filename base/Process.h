//===--- Process.h - child processes ----------------------------*- C++ -*-===//
//
// Starting a child process with its output redirected, and waiting for it
// with a time limit: the check run's workers and every program verify
// builds and runs go through here.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_BASE_PROCESS_H
#define TORCH_TIDY_BASE_PROCESS_H

#include <string>
#include <utility>
#include <vector>

namespace torch_tidy {

/// How a child process ended.
struct ProcessResult {
  bool Started = false;  ///< false: it could not be started (see Error)
  bool TimedOut = false; ///< killed after the time limit
  int ExitCode = -1;     ///< valid when it exited normally
  int Signal = 0;        ///< non-zero when a signal ended it
  std::string Error;

  bool succeeded() const {
    return Started && !TimedOut && Signal == 0 && ExitCode == 0;
  }
  /// "exit status 3", "killed by signal 11 (Segmentation fault)", ...
  std::string describe() const;
  /// The result of a child that ended with wait status \p Status.
  static ProcessResult fromWaitStatus(int Status);
};

struct ProcessOptions {
  std::vector<std::pair<std::string, std::string>> SetEnv; ///< added to ours
  std::string StdoutPath;                                  ///< empty: inherit
  std::string StderrPath;      ///< empty: inherit; "=stdout": same as stdout
  bool NullStdin = false;      ///< read from /dev/null instead of our stdin
  unsigned TimeoutSeconds = 0; ///< 0: none
};

/// Starts Argv[0] (looked up in PATH unless it has a '/') with Argv, its
/// SIGINT and SIGTERM back to their defaults. Returns its process id, or 0
/// with \p Error set when it could not be started.
int startProcess(const std::vector<std::string> &Argv,
                 const ProcessOptions &Options, std::string &Error);

/// Runs Argv[0] as startProcess does and waits for it (at most
/// Options.TimeoutSeconds, then kills it).
ProcessResult runProcess(const std::vector<std::string> &Argv,
                         const ProcessOptions &Options);

/// The process id of the child runProcess is waiting for, or 0: a signal
/// handler may forward a signal to it.
int currentChildPid();

} // namespace torch_tidy

#endif
