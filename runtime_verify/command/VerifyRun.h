//===--- VerifyRun.h - run an instrumented program and measure it ---------===//
#ifndef TORCH_TIDY_RUNTIME_VERIFY_COMMAND_VERIFYRUN_H
#define TORCH_TIDY_RUNTIME_VERIFY_COMMAND_VERIFYRUN_H

#include "runtime_verify/command/VerifyOptions.h"
#include "runtime_verify/command/VerifyReport.h"

#include <string>
#include <vector>

namespace torch_tidy::verify {

/// Runs `Argv` (Options.Repeat times) with the probe told to write to
/// `TracePath` and to stop after warm-up + iterations samples, and measures
/// probe `ProbeName` in the trace.
VariantResult runAndMeasure(const std::vector<std::string> &Argv, const std::string &TracePath,
                            const std::string &ProbeName, VerifyProbe Probe,
                            const VerifyOptions &Options, const std::string &LogPath);

} // namespace torch_tidy::verify

#endif
