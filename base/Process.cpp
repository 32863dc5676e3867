//===--- Process.cpp - child processes ------------------------------------===//

#include "base/Process.h"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char **environ;

namespace torch_tidy {

static std::atomic<int> ChildPid{0};

int currentChildPid() { return ChildPid.load(); }

std::string ProcessResult::describe() const {
  if (!Started)
    return "could not start: " + Error;
  if (TimedOut)
    return "timed out";
  if (Signal)
    return "killed by signal " + std::to_string(Signal) + " (" +
           strsignal(Signal) + ")";
  return "exit status " + std::to_string(ExitCode);
}

ProcessResult ProcessResult::fromWaitStatus(int Status) {
  ProcessResult R;
  R.Started = true;
  if (WIFEXITED(Status))
    R.ExitCode = WEXITSTATUS(Status);
  else if (WIFSIGNALED(Status))
    R.Signal = WTERMSIG(Status);
  return R;
}

namespace {

/// Our environment with \p Set added (replacing variables of the same name).
std::vector<std::string>
environmentWith(const std::vector<std::pair<std::string, std::string>> &Set) {
  std::vector<std::string> Env;
  for (char **E = environ; *E; ++E) {
    bool Replaced = false;
    for (const auto &KV : Set)
      Replaced |= std::strncmp(*E, KV.first.c_str(), KV.first.size()) == 0 &&
                  (*E)[KV.first.size()] == '=';
    if (!Replaced)
      Env.push_back(*E);
  }
  for (const auto &KV : Set)
    Env.push_back(KV.first + "=" + KV.second);
  return Env;
}

std::vector<char *> pointersTo(std::vector<std::string> &Strings) {
  std::vector<char *> P;
  for (std::string &S : Strings)
    P.push_back(S.data());
  P.push_back(nullptr);
  return P;
}

/// The redirections of \p O, in the order a shell would apply them.
void addFileActions(posix_spawn_file_actions_t &Actions,
                    const ProcessOptions &O) {
  if (O.NullStdin)
    posix_spawn_file_actions_addopen(&Actions, STDIN_FILENO, "/dev/null",
                                     O_RDONLY, 0);
  const int Write = O_WRONLY | O_CREAT | O_TRUNC;
  if (!O.StdoutPath.empty())
    posix_spawn_file_actions_addopen(&Actions, STDOUT_FILENO,
                                     O.StdoutPath.c_str(), Write, 0644);
  if (O.StderrPath == "=stdout")
    posix_spawn_file_actions_adddup2(&Actions, STDOUT_FILENO, STDERR_FILENO);
  else if (!O.StderrPath.empty())
    posix_spawn_file_actions_addopen(&Actions, STDERR_FILENO,
                                     O.StderrPath.c_str(), Write, 0644);
}

} // namespace

int startProcess(const std::vector<std::string> &Argv,
                 const ProcessOptions &Options, std::string &Error) {
  if (Argv.empty()) {
    Error = "empty command";
    return 0;
  }
  std::vector<std::string> Args = Argv;
  std::vector<char *> CArgs = pointersTo(Args);
  std::vector<std::string> Env = environmentWith(Options.SetEnv);
  std::vector<char *> CEnv = pointersTo(Env);

  posix_spawn_file_actions_t Actions;
  posix_spawn_file_actions_init(&Actions);
  addFileActions(Actions, Options);
  posix_spawnattr_t Attributes;
  posix_spawnattr_init(&Attributes);
  sigset_t Defaults;
  sigemptyset(&Defaults);
  sigaddset(&Defaults, SIGINT);
  sigaddset(&Defaults, SIGTERM);
  posix_spawnattr_setsigdefault(&Attributes, &Defaults);
  posix_spawnattr_setflags(&Attributes, POSIX_SPAWN_SETSIGDEF);
  pid_t Pid = 0;
  int Err = posix_spawnp(&Pid, CArgs[0], &Actions, &Attributes, CArgs.data(),
                         CEnv.data());
  posix_spawnattr_destroy(&Attributes);
  posix_spawn_file_actions_destroy(&Actions);
  if (Err != 0) {
    Error = std::strerror(Err);
    return 0;
  }
  return Pid;
}

ProcessResult runProcess(const std::vector<std::string> &Argv,
                         const ProcessOptions &Options) {
  ProcessResult Result;
  std::string Error;
  pid_t Pid = startProcess(Argv, Options, Error);
  if (!Pid) {
    Result.Error = Argv.empty() ? Error : Argv[0] + ": " + Error;
    return Result;
  }
  ChildPid.store(Pid);
  auto Start = std::chrono::steady_clock::now();
  int Status = 0;
  bool TimedOut = false;
  while (true) {
    pid_t Done = ::waitpid(Pid, &Status, WNOHANG);
    if (Done == Pid)
      break;
    if (Done < 0 && errno != EINTR)
      break;
    if (Options.TimeoutSeconds &&
        std::chrono::steady_clock::now() - Start >
            std::chrono::seconds(Options.TimeoutSeconds)) {
      ::kill(Pid, SIGKILL);
      ::waitpid(Pid, &Status, 0);
      TimedOut = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ChildPid.store(0);
  if (TimedOut) {
    Result.Started = true;
    Result.TimedOut = true;
    return Result;
  }
  return ProcessResult::fromWaitStatus(Status);
}

} // namespace torch_tidy
