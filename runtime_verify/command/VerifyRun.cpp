//===--- VerifyRun.cpp - the runs of a variant, and what they measured ----===//
#include "runtime_verify/command/VerifyRun.h"

#include "runtime_verify/bundle/Layout.h"
#include "runtime_verify/bundle/Results.h"

#include "base/AtomicWrite.h"
#include "base/Process.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <chrono>

namespace torch_tidy::verify {

namespace fs = llvm::sys::fs;

BundleSettings settingsOf(const VerifyOptions &O) {
  BundleSettings S;
  S.Iterations = O.Iterations;
  S.Warmup = O.Warmup;
  S.Timeout = O.Timeout;
  S.Repeat = O.Repeat;
  return S;
}

/// The seconds run-K.seconds records, if it does.
static std::optional<double> runSeconds(const std::string &VariantDir, unsigned K) {
  auto Buffer = llvm::MemoryBuffer::getFile(layout::runFile(VariantDir, K, "seconds"));
  double Seconds = 0;
  if (!Buffer || (*Buffer)->getBuffer().trim().getAsDouble(Seconds))
    return std::nullopt;
  return Seconds;
}

/// Run \p K of the variant in \p VariantDir, as its files record it.
static VariantResult judgeRun(const std::string &VariantDir, unsigned K,
                              const std::string &ProbeName, VerifyProbe Probe,
                              const BundleSettings &S) {
  VariantResult V;
  std::string StatusPath = layout::runFile(VariantDir, K, "status");
  std::string TracePath = layout::runFile(VariantDir, K, "jsonl");
  std::string LogPath = layout::runFile(VariantDir, K, "log");
  llvm::Expected<std::optional<ProcessResult>> Status = readStatus(StatusPath);
  if (!Status) {
    V.Error = llvm::toString(Status.takeError());
    return V;
  }
  if (!*Status && !fs::exists(TracePath)) {
    V.Error = "it was not run (no " + StatusPath + ")";
    return V;
  }
  llvm::Expected<std::vector<ProbeSample>> Samples = readTrace(TracePath, ProbeName);
  if (!Samples) {
    V.Error = llvm::toString(Samples.takeError());
    return V;
  }
  unsigned Needed = S.Warmup + 3;
  std::string Count = std::to_string(Samples->size()) + " samples";
  if (Samples->size() < Needed) {
    if (!*Status)
      V.Error = "the run left " + Count + " and no exit status (it was interrupted, or its "
                "results are incomplete)";
    else if (!(*Status)->succeeded())
      V.Error = "the program " + (*Status)->describe() + " after " + Count + " (log: " +
                LogPath + ")";
    else
      V.Error = "the program ended after " + Count + "; it needs at least " +
                std::to_string(Needed) + " (let the loop run longer or lower --warmup)";
    return V;
  }
  V.Ran = true;
  V.Figures = measureGrowth(*Samples, S.Warmup);
  V.Confirmed = confirms(Probe, V.Figures);
  if (std::optional<double> Seconds = runSeconds(VariantDir, K))
    V.RunSeconds.push_back(*Seconds);
  return V;
}

VariantResult judgeRuns(const std::string &VariantDir, const std::string &ProbeName,
                        VerifyProbe Probe, const BundleSettings &S) {
  VariantResult First = judgeRun(VariantDir, 1, ProbeName, Probe, S);
  if (!First.Ran || S.Repeat < 2)
    return First;
  First.RepeatVerdicts.push_back(First.Confirmed);
  for (unsigned K = 2; K <= S.Repeat; ++K) {
    VariantResult Again = judgeRun(VariantDir, K, ProbeName, Probe, S);
    if (!Again.Ran) {
      First.Ran = false;
      First.Error = "run " + std::to_string(K) + " failed: " + Again.Error;
      return First;
    }
    First.RepeatVerdicts.push_back(Again.Confirmed);
    First.RunSeconds.insert(First.RunSeconds.end(), Again.RunSeconds.begin(),
                            Again.RunSeconds.end());
  }
  return First;
}

VariantResult runAndMeasure(const std::vector<std::string> &Argv, const std::string &VariantDir,
                            const std::string &ProbeName, VerifyProbe Probe,
                            const VerifyOptions &O) {
  BundleSettings S = settingsOf(O);
  fs::create_directories(VariantDir);
  for (unsigned K = 1; K <= S.Repeat; ++K) {
    std::string Trace = layout::runFile(VariantDir, K, "jsonl");
    fs::remove(Trace);
    ProcessOptions P;
    P.SetEnv = {{"TORCH_TIDY_PROBE_TRACE", Trace},
                {"TORCH_TIDY_PROBE_STOP_AFTER", std::to_string(S.Warmup + S.Iterations)}};
    P.StdoutPath = layout::runFile(VariantDir, K, "log");
    P.StderrPath = "=stdout";
    P.TimeoutSeconds = S.Timeout;
    auto Start = std::chrono::steady_clock::now();
    ProcessResult R = runProcess(Argv, P);
    std::chrono::duration<double> Took = std::chrono::steady_clock::now() - Start;
    std::string Error;
    writeAtomically(layout::runFile(VariantDir, K, "seconds"),
                    std::to_string(Took.count()) + "\n", Error);
    if (llvm::Error E = writeStatus(layout::runFile(VariantDir, K, "status"), R, S.Timeout)) {
      VariantResult V;
      V.Error = llvm::toString(std::move(E));
      return V;
    }
  }
  return judgeRuns(VariantDir, ProbeName, Probe, S);
}

} // namespace torch_tidy::verify
