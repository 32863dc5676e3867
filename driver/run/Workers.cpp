//===--- Workers.cpp - one process per translation unit -------------------===//

#include "driver/run/Workers.h"

#include "base/Process.h"
#include "base/ResultFile.h"
#include "driver/report/SourceFiles.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include "llvm/Support/FormatVariadic.h"

#include <chrono>
#include <csignal>
#include <cstring>
#include <deque>
#include <sys/wait.h>
#include <unistd.h>

namespace torch_tidy {

// With TORCH_TIDY_CACHE_TRACE=1 a worker's cache trace is passed on, as the
// in-process run prints it.
static void forwardCacheTrace(llvm::StringRef LogPath) {
  static const bool On =
      llvm::sys::Process::GetEnv("TORCH_TIDY_CACHE_TRACE").value_or("") == "1";
  if (!On)
    return;
  auto Log = llvm::MemoryBuffer::getFile(LogPath, /*IsText=*/true);
  if (!Log)
    return;
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  (*Log)->getBuffer().split(Lines, '\n');
  for (llvm::StringRef Line : Lines)
    if (Line.starts_with("torch-tidy: cache "))
      llvm::errs() << Line << "\n";
}
namespace {

using Clock = std::chrono::steady_clock;

std::string clock(double Seconds) {
  unsigned S = static_cast<unsigned>(Seconds + 0.5);
  return llvm::formatv("{0}:{1:2}", S / 60, S % 60).str();
}

std::string tailOf(llvm::StringRef Path, size_t Lines) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buffer)
    return "";
  llvm::StringRef Text = (*Buffer)->getBuffer().trim();
  if (Text.empty())
    return "";
  llvm::SmallVector<llvm::StringRef, 0> All;
  Text.split(All, '\n');
  std::string Out;
  for (size_t I = All.size() > Lines ? All.size() - Lines : 0; I < All.size();
       ++I)
    Out += "  " + All[I].str() + "\n";
  return Out;
}

/// Why a worker that ended with wait status \p Status gave no result, or
/// "" when it exited cleanly.
std::string workerFailure(int Status) {
  ProcessResult R = ProcessResult::fromWaitStatus(Status);
  if (R.Signal)
    return "the worker was " + R.describe() +
           (R.Signal == SIGKILL ? "; out of memory?" : "");
  if (R.ExitCode != 0)
    return "the worker exited with status " + std::to_string(R.ExitCode);
  return "";
}

/// The result a worker wrote to \p Path into \p Out, or why there is none.
std::string readWorkerResult(llvm::StringRef Path, TUResult &Out) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  llvm::Expected<llvm::json::Value> V =
      Buffer ? llvm::json::parse((*Buffer)->getBuffer())
             : llvm::Expected<llvm::json::Value>(
                   llvm::createStringError(Buffer.getError(), "no result"));
  std::string Error;
  if (!V)
    return "the worker left no readable result: " +
           llvm::toString(V.takeError());
  if (!fromJSON(*V, Out, Error))
    return "the worker's result is malformed: " + Error;
  return "";
}

/// The workers of one run: at most Plan.Jobs at a time, each writing its
/// result and its output to files of a private temporary folder.
class WorkerPool {
public:
  WorkerPool(const WorkerPlan &Plan, const std::vector<std::string> &Files,
             std::string TempDir)
      : Plan(Plan), Files(Files), TempDir(std::move(TempDir)),
        Results(Files.size()) {}

  std::vector<TUResult> run(std::vector<std::optional<TUResult>> &Found) {
    unsigned Jobs = std::max(1u, Plan.Jobs);
    for (size_t I = 0; I < Files.size(); ++I) {
      if (I < Found.size() && Found[I]) {
        Results[I] = std::move(*Found[I]);
        Current = Files[I];
        ++Done;
        continue;
      }
      Pending.push_back(I);
    }
    if (Done)
      draw(true);
    while (Done < Files.size()) {
      while (Live.size() < Jobs && launchNext())
        ;
      draw(false);
      if (Live.empty())
        continue;
      int Status = 0;
      pid_t Pid = waitpid(-1, &Status, Plan.ShowProgress ? WNOHANG : 0);
      if (Pid == 0) {
        usleep(100 * 1000);
        continue;
      }
      if (Pid < 0) {
        if (errno == EINTR)
          continue;
        break;
      }
      auto It = Live.find(Pid);
      if (It == Live.end())
        continue;
      Running R = It->second;
      Live.erase(It);
      finish(R, Status);
      draw(true);
    }
    if (Plan.ShowProgress) {
      llvm::errs() << "\r\033[K";
      llvm::errs().flush();
    }
    return std::move(Results);
  }

private:
  struct Running {
    size_t Index;
    std::string ResultPath, LogPath;
    /// The group whose preamble this worker builds, if it does.
    std::string Builds;
  };

  /// Where the preamble of a group of units stands.
  enum class GroupState { NotStarted, Building, Ready };

  /// Starts the first waiting unit that need not wait for a preamble being
  /// built; false when there is none.
  bool launchNext() {
    for (auto It = Pending.begin(); It != Pending.end(); ++It) {
      auto Group = Plan.PreambleGroup.find(Files[*It]);
      std::string Builds;
      if (Group != Plan.PreambleGroup.end()) {
        GroupState &State = Groups[Group->second];
        if (State == GroupState::Building)
          continue;
        if (State == GroupState::NotStarted) {
          State = GroupState::Building;
          Builds = Group->second;
        }
      }
      size_t I = *It;
      Pending.erase(It);
      launch(I, Builds);
      return true;
    }
    return false;
  }

  void launch(size_t I, const std::string &Builds) {
    Running R;
    R.Index = I;
    R.Builds = Builds;
    R.ResultPath = TempDir + "/" + std::to_string(I) + ".json";
    R.LogPath = TempDir + "/" + std::to_string(I) + ".log";
    std::vector<std::string> Args{Plan.Executable,
                                  "--torch-tidy-worker=" + R.ResultPath};
    Args.insert(Args.end(), Plan.CommonArgs.begin(), Plan.CommonArgs.end());
    auto Extra = Plan.UnitArgs.find(Files[I]);
    if (Extra != Plan.UnitArgs.end())
      Args.insert(Args.end(), Extra->second.begin(), Extra->second.end());
    if (!Builds.empty())
      Args.insert(Args.end(), Plan.BuilderArgs.begin(), Plan.BuilderArgs.end());
    Args.push_back(Files[I]);
    Args.insert(Args.end(), Plan.TrailingArgs.begin(), Plan.TrailingArgs.end());
    ProcessOptions Options;
    Options.NullStdin = true;
    Options.StdoutPath = R.LogPath;
    Options.StderrPath = "=stdout";
    std::string Error;
    pid_t Pid = startProcess(Args, Options, Error);
    Current = Files[I];
    if (!Pid) {
      Results[I] =
          TUResult::failure(Files[I], "cannot start a worker: " + Error);
      ++Done;
      settle(R);
      return;
    }
    Live[Pid] = R;
  }

  /// The units of the group whose preamble \p R built, or failed to, may go.
  void settle(const Running &R) {
    if (!R.Builds.empty())
      Groups[R.Builds] = GroupState::Ready;
  }

  void finish(const Running &R, int Status) {
    settle(R);
    TUResult &Out = Results[R.Index];
    std::string Why = workerFailure(Status);
    if (Why.empty())
      Why = readWorkerResult(R.ResultPath, Out);
    if (!Why.empty()) {
      Out = TUResult::failure(Files[R.Index], Why);
      std::string Tail = tailOf(R.LogPath, 5);
      if (!Tail.empty())
        Out.FailureMessage += "; its last output:\n" + Tail;
    }
    Out.MainFile = Files[R.Index];
    forwardCacheTrace(R.LogPath);
    llvm::sys::fs::remove(R.ResultPath);
    llvm::sys::fs::remove(R.LogPath);
    ++Done;
  }

  /// The progress line, at most twice a second unless \p Force.
  void draw(bool Force) {
    if (!Plan.ShowProgress)
      return;
    auto Now = Clock::now();
    if (!Force && Now - LastDraw < std::chrono::milliseconds(500))
      return;
    LastDraw = Now;
    double Elapsed = std::chrono::duration<double>(Now - Start).count();
    std::string Eta =
        Done > 0 ? clock(Elapsed / Done * (Files.size() - Done)) : "?";
    llvm::errs() << "\r\033[K"
                 << llvm::formatv("[{0}/{1}] {2}  elapsed {3}  ETA {4}", Done,
                                  Files.size(), Current, clock(Elapsed), Eta);
    llvm::errs().flush();
  }

  const WorkerPlan &Plan;
  const std::vector<std::string> &Files;
  std::string TempDir;
  std::vector<TUResult> Results;
  std::map<pid_t, Running> Live;
  std::vector<size_t> Pending;
  std::map<std::string, GroupState> Groups;
  size_t Done = 0;
  Clock::time_point Start = Clock::now(), LastDraw;
  std::string Current;
};

} // namespace

std::vector<TUResult> runWorkers(const WorkerPlan &Plan,
                                 const std::vector<std::string> &Files,
                                 std::vector<std::optional<TUResult>> Found) {
  llvm::SmallString<128> TempDir;
  if (std::error_code EC =
          llvm::sys::fs::createUniqueDirectory("torch-tidy-run", TempDir)) {
    std::string Why = "cannot create a temporary directory: " + EC.message();
    std::vector<TUResult> Results;
    for (size_t I = 0; I < Files.size(); ++I)
      Results.push_back(I < Found.size() && Found[I]
                            ? std::move(*Found[I])
                            : TUResult::failure(Files[I], Why));
    return Results;
  }
  std::vector<TUResult> Results =
      WorkerPool(Plan, Files, std::string(TempDir)).run(Found);
  llvm::sys::fs::remove(TempDir);
  return Results;
}

} // namespace torch_tidy
