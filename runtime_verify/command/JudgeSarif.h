//===--- JudgeSarif.h - verdicts marked in a SARIF log ----------*- C++ -*-===//
//
// A CI job that checked the code wrote a SARIF log; once the bundle of its
// findings has run, the judge marks each verified finding's result in that
// log: the property "torchTidyRuntime" (verdict, figures as written and with
// the fix, devices) and, when confirmed, the tag "confirmed-at-runtime".
// A result is a finding's when its rule, start line and file are the
// finding's.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_RUNTIME_VERIFY_COMMAND_JUDGESARIF_H
#define TORCH_TIDY_RUNTIME_VERIFY_COMMAND_JUDGESARIF_H

#include "runtime_verify/command/VerifyReport.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace torch_tidy::verify {

/// Reads the SARIF log \p In, marks the results of \p Results in it and
/// writes it to \p Out (atomically); \p Unmatched counts the verdicts that
/// found no result.
llvm::Error markSarif(const std::string &In, const std::string &Out,
                      const std::vector<FindingResult> &Results, unsigned &Unmatched);

} // namespace torch_tidy::verify

#endif
