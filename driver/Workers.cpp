//===--- Workers.cpp - one process per translation unit -------------------===//

#include "driver/Workers.h"

#include "base/Process.h"
#include "base/ResultFile.h"
#include "driver/SourceFiles.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include "llvm/Support/FormatVariadic.h"

#include <chrono>
#include <cstring>
#include <csignal>
#include <deque>
#include <sys/wait.h>
#include <unistd.h>

namespace torch_tidy {

// With TORCH_TIDY_CACHE_TRACE=1 a worker's cache trace is passed on, as the
// in-process run prints it.
static void forwardCacheTrace(llvm::StringRef LogPath) {
  static const bool On = llvm::sys::Process::GetEnv("TORCH_TIDY_CACHE_TRACE")
                             .value_or("") == "1";
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

struct Running {
  size_t Index;
  std::string ResultPath, LogPath;
};

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
  for (size_t I = All.size() > Lines ? All.size() - Lines : 0; I < All.size(); ++I)
    Out += "  " + All[I].str() + "\n";
  return Out;
}

} // namespace

std::vector<TUResult> runWorkers(const WorkerPlan &Plan,
                                 const std::vector<std::string> &Files) {
  std::vector<TUResult> Results(Files.size());
  llvm::SmallString<128> TempDir;
  if (std::error_code EC =
          llvm::sys::fs::createUniqueDirectory("torch-tidy-run", TempDir)) {
    for (size_t I = 0; I < Files.size(); ++I) {
      Results[I].MainFile = Files[I];
      Results[I].Failed = true;
      Results[I].FailureMessage = "cannot create a temporary directory: " + EC.message();
    }
    return Results;
  }

  std::map<pid_t, Running> Live;
  size_t Next = 0, Done = 0;
  auto Start = Clock::now();
  auto LastDraw = Clock::time_point();
  std::string Current;

  auto Draw = [&](bool Force) {
    if (!Plan.ShowProgress)
      return;
    auto Now = Clock::now();
    if (!Force && Now - LastDraw < std::chrono::milliseconds(500))
      return;
    LastDraw = Now;
    double Elapsed = std::chrono::duration<double>(Now - Start).count();
    std::string Eta = "?";
    if (Done > 0)
      Eta = clock(Elapsed / Done * (Files.size() - Done));
    std::string Line = llvm::formatv("[{0}/{1}] {2}  elapsed {3}  ETA {4}", Done,
                                     Files.size(), Current, clock(Elapsed), Eta)
                           .str();
    llvm::errs() << "\r\033[K" << Line;
    llvm::errs().flush();
  };

  auto Launch = [&](size_t I) {
    Running R;
    R.Index = I;
    R.ResultPath = (TempDir + "/" + std::to_string(I) + ".json").str();
    R.LogPath = (TempDir + "/" + std::to_string(I) + ".log").str();
    std::vector<std::string> Args{Plan.Executable,
                                  "--torch-tidy-worker=" + R.ResultPath};
    Args.insert(Args.end(), Plan.CommonArgs.begin(), Plan.CommonArgs.end());
    auto Extra = Plan.UnitArgs.find(Files[I]);
    if (Extra != Plan.UnitArgs.end())
      Args.insert(Args.end(), Extra->second.begin(), Extra->second.end());
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
      Results[I] = TUResult::failure(Files[I], "cannot start a worker: " + Error);
      ++Done;
      return;
    }
    Live[Pid] = R;
  };

  auto Finish = [&](const Running &R, int Status) {
    TUResult &Out = Results[R.Index];
    std::string Why;
    if (WIFSIGNALED(Status)) {
      int Sig = WTERMSIG(Status);
      Why = "the worker was killed by signal " + std::to_string(Sig) + " (" +
            strsignal(Sig) + ")" +
            (Sig == SIGKILL ? "; out of memory?" : "");
    } else if (WIFEXITED(Status) && WEXITSTATUS(Status) != 0) {
      Why = "the worker exited with status " + std::to_string(WEXITSTATUS(Status));
    } else {
      auto Buffer = llvm::MemoryBuffer::getFile(R.ResultPath, /*IsText=*/true);
      std::string Error;
      llvm::Expected<llvm::json::Value> V =
          Buffer ? llvm::json::parse((*Buffer)->getBuffer())
                 : llvm::Expected<llvm::json::Value>(llvm::createStringError(
                       Buffer.getError(), "no result"));
      if (!V)
        Why = "the worker left no readable result: " + llvm::toString(V.takeError());
      else if (!fromJSON(*V, Out, Error))
        Why = "the worker's result is malformed: " + Error;
    }
    if (!Why.empty()) {
      Out = TUResult();
      Out.Failed = true;
      Out.FailureMessage = Why;
      std::string Tail = tailOf(R.LogPath, 5);
      if (!Tail.empty())
        Out.FailureMessage += "; its last output:\n" + Tail;
    }
    Out.MainFile = Files[R.Index];
    forwardCacheTrace(R.LogPath);
    llvm::sys::fs::remove(R.ResultPath);
    llvm::sys::fs::remove(R.LogPath);
    ++Done;
  };

  unsigned Jobs = std::max(1u, Plan.Jobs);
  while (Done < Files.size()) {
    while (Next < Files.size() && Live.size() < Jobs)
      Launch(Next++);
    Draw(false);
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
    Finish(R, Status);
    Draw(true);
  }
  if (Plan.ShowProgress) {
    llvm::errs() << "\r\033[K";
    llvm::errs().flush();
  }
  llvm::sys::fs::remove(TempDir);
  return Results;
}

} // namespace torch_tidy
