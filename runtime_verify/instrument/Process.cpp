//===--- Process.cpp - run a child process with a timeout -----------------===//
#include "runtime_verify/instrument/Process.h"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace torch_tidy {
namespace verify {

static std::atomic<int> ChildPid{0};

int currentChildPid() { return ChildPid.load(); }

std::string ProcessResult::describe() const {
  if (!Started)
    return "could not start: " + Error;
  if (TimedOut)
    return "timed out";
  if (Signal)
    return "killed by signal " + std::to_string(Signal) + " (" + strsignal(Signal) + ")";
  return "exit status " + std::to_string(ExitCode);
}

static bool redirect(const std::string &Path, int Fd) {
  int Out = ::open(Path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (Out < 0)
    return false;
  bool Ok = ::dup2(Out, Fd) >= 0;
  ::close(Out);
  return Ok;
}

ProcessResult runProcess(const std::vector<std::string> &Argv, const ProcessOptions &Options) {
  ProcessResult Result;
  if (Argv.empty()) {
    Result.Error = "empty command";
    return Result;
  }
  std::vector<char *> CArgs;
  for (const std::string &A : Argv)
    CArgs.push_back(const_cast<char *>(A.c_str()));
  CArgs.push_back(nullptr);

  // A pipe closed on exec tells the parent whether exec worked.
  int ExecPipe[2];
  if (::pipe2(ExecPipe, O_CLOEXEC) != 0) {
    Result.Error = std::strerror(errno);
    return Result;
  }
  pid_t Pid = ::fork();
  if (Pid < 0) {
    Result.Error = std::strerror(errno);
    ::close(ExecPipe[0]);
    ::close(ExecPipe[1]);
    return Result;
  }
  if (Pid == 0) {
    ::close(ExecPipe[0]);
    ::signal(SIGINT, SIG_DFL);
    ::signal(SIGTERM, SIG_DFL);
    for (const auto &KV : Options.SetEnv)
      ::setenv(KV.first.c_str(), KV.second.c_str(), 1);
    bool Ok = true;
    if (!Options.WorkingDir.empty() && ::chdir(Options.WorkingDir.c_str()) != 0)
      Ok = false;
    if (Ok && !Options.StdoutPath.empty())
      Ok = redirect(Options.StdoutPath, STDOUT_FILENO);
    if (Ok && Options.StderrPath == "=stdout")
      Ok = ::dup2(STDOUT_FILENO, STDERR_FILENO) >= 0;
    else if (Ok && !Options.StderrPath.empty())
      Ok = redirect(Options.StderrPath, STDERR_FILENO);
    if (Ok)
      ::execvp(CArgs[0], CArgs.data());
    int Err = errno;
    (void)!::write(ExecPipe[1], &Err, sizeof Err);
    ::_exit(127);
  }
  ::close(ExecPipe[1]);
  int ExecErr = 0;
  ssize_t Got;
  do
    Got = ::read(ExecPipe[0], &ExecErr, sizeof ExecErr);
  while (Got < 0 && errno == EINTR);
  ::close(ExecPipe[0]);
  ChildPid.store(Pid);

  auto Start = std::chrono::steady_clock::now();
  int Status = 0;
  while (true) {
    pid_t Done = ::waitpid(Pid, &Status, WNOHANG);
    if (Done == Pid)
      break;
    if (Done < 0 && errno != EINTR)
      break;
    if (Options.TimeoutSeconds &&
        std::chrono::steady_clock::now() - Start > std::chrono::seconds(Options.TimeoutSeconds)) {
      ::kill(Pid, SIGKILL);
      ::waitpid(Pid, &Status, 0);
      Result.TimedOut = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ChildPid.store(0);
  if (Got == static_cast<ssize_t>(sizeof ExecErr)) {
    Result.Error = Argv[0] + ": " + std::strerror(ExecErr);
    return Result;
  }
  Result.Started = true;
  if (Result.TimedOut)
    return Result;
  if (WIFEXITED(Status))
    Result.ExitCode = WEXITSTATUS(Status);
  else if (WIFSIGNALED(Status))
    Result.Signal = WTERMSIG(Status);
  return Result;
}

} // namespace verify
} // namespace torch_tidy
