//===--- VerifyRun.cpp - run an instrumented program and measure it -------===//
#include "runtime_verify/command/VerifyRun.h"

#include "base/Process.h"

#include "llvm/Support/FileSystem.h"

namespace torch_tidy::verify {


static VariantResult runOnce(const std::vector<std::string> &Argv, const std::string &TracePath,
                             const std::string &ProbeName, VerifyProbe Probe,
                             const VerifyOptions &O, const std::string &LogPath) {
  VariantResult V;
  llvm::sys::fs::remove(TracePath);
  ProcessOptions P;
  P.SetEnv = {{"TORCH_TIDY_PROBE_TRACE", TracePath},
              {"TORCH_TIDY_PROBE_STOP_AFTER", std::to_string(O.Warmup + O.Iterations)}};
  P.StdoutPath = LogPath;
  P.StderrPath = "=stdout";
  P.TimeoutSeconds = O.Timeout;
  ProcessResult R = runProcess(Argv, P);
  llvm::Expected<std::vector<ProbeSample>> Samples = readTrace(TracePath, ProbeName);
  if (!Samples) {
    V.Error = llvm::toString(Samples.takeError());
    return V;
  }
  unsigned Needed = O.Warmup + 3;
  if (Samples->size() < Needed) {
    if (!R.succeeded())
      V.Error = "the program " + R.describe() + " after " + std::to_string(Samples->size()) +
                " samples (log: " + LogPath + ")";
    else
      V.Error = "the program ended after " + std::to_string(Samples->size()) +
                " samples; it needs at least " + std::to_string(Needed) +
                " (let the loop run longer or lower --warmup)";
    return V;
  }
  V.Ran = true;
  V.Figures = measureGrowth(*Samples, O.Warmup);
  V.Confirmed = confirms(Probe, V.Figures);
  return V;
}

VariantResult runAndMeasure(const std::vector<std::string> &Argv, const std::string &TracePath,
                            const std::string &ProbeName, VerifyProbe Probe,
                            const VerifyOptions &O, const std::string &LogPath) {
  VariantResult First = runOnce(Argv, TracePath, ProbeName, Probe, O, LogPath);
  if (!First.Ran || O.Repeat < 2)
    return First;
  First.RepeatVerdicts.push_back(First.Confirmed);
  for (unsigned I = 1; I < O.Repeat; ++I) {
    VariantResult Again = runOnce(Argv, TracePath, ProbeName, Probe, O, LogPath);
    if (!Again.Ran) {
      First.Ran = false;
      First.Error = "run " + std::to_string(I + 1) + " failed: " + Again.Error;
      return First;
    }
    First.RepeatVerdicts.push_back(Again.Confirmed);
  }
  return First;
}

} // namespace torch_tidy::verify
