//===--- Judge.h - verdicts from what a bundle's run left -------*- C++ -*-===//
//
// `torch-tidy verify --judge DIR` reads a bundle's manifest and the results
// its run script left (on this machine or another) and prints the verdicts
// an in-process verify prints; the in-process verify itself ends here too.
// A missing, partial or damaged result gives its finding a "could not run"
// verdict that says what is missing; it never stops the others.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_RUNTIME_VERIFY_COMMAND_JUDGE_H
#define TORCH_TIDY_RUNTIME_VERIFY_COMMAND_JUDGE_H

#include "runtime_verify/bundle/Manifest.h"
#include "runtime_verify/command/VerifyOptions.h"
#include "runtime_verify/command/VerifyReport.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace torch_tidy::verify {

/// The verdicts of a bundle's findings.
struct Judgement {
  BundleManifest Manifest;
  std::vector<FindingResult> Results;         ///< one per finding, in order
  std::vector<std::string> WithoutFindings;   ///< programs with none
};

/// Judges the bundle in \p Dir by its results/; \p MemoryLimit (bytes; 0:
/// the GPU's total memory, when the run recorded it) is what the
/// out-of-memory estimate counts against. An error only when \p Dir holds
/// no readable manifest.
llvm::Expected<Judgement> judgeBundle(const std::string &Dir, double MemoryLimit);

/// Prints \p J as \p O asks (text or JSON; a SARIF log marked with the
/// verdicts) and returns verify's exit status.
int reportJudgement(const VerifyOptions &O, const Judgement &J);

/// `verify --judge DIR`.
int judgeMain(const VerifyOptions &O);

} // namespace torch_tidy::verify

#endif
