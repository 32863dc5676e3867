//===--- VerifyRun.h - the runs of a variant, and what they measured ------===//
//
// However a variant ran (by a bundle's run script, anywhere, or by verify
// in place), each run K left in the variant's folder run-K.status,
// run-K.jsonl (the probe's trace), run-K.log and run-K.seconds
// (bundle/Layout.h, bundle/Results.h). judgeRuns turns them into figures
// and a verdict; both ways of running go through it.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_RUNTIME_VERIFY_COMMAND_VERIFYRUN_H
#define TORCH_TIDY_RUNTIME_VERIFY_COMMAND_VERIFYRUN_H

#include "runtime_verify/bundle/Manifest.h"
#include "runtime_verify/command/VerifyOptions.h"
#include "runtime_verify/command/VerifyReport.h"

#include <string>
#include <vector>

namespace torch_tidy::verify {

/// The figures and verdict of probe \p ProbeName in the runs recorded in
/// \p VariantDir (Settings.Repeat of them); Ran is false, with the reason,
/// when a run is missing, failed too early, or left a damaged trace.
VariantResult judgeRuns(const std::string &VariantDir, const std::string &ProbeName,
                        VerifyProbe Probe, const BundleSettings &Settings);

/// Runs `Argv` (Options.Repeat times) with the probe told to write its
/// trace into \p VariantDir and to stop after warm-up + iterations samples,
/// recording each run there as a bundle's run does, and judges the runs.
VariantResult runAndMeasure(const std::vector<std::string> &Argv, const std::string &VariantDir,
                            const std::string &ProbeName, VerifyProbe Probe,
                            const VerifyOptions &Options);

/// The settings of a bundle made with \p Options.
BundleSettings settingsOf(const VerifyOptions &Options);

} // namespace torch_tidy::verify

#endif
