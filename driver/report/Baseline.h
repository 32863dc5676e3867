//===--- Baseline.h - findings accepted earlier -----------------*- C++ -*-===//
//
// A baseline records the fingerprints of the findings a project already has,
// so that a CI gate fails only on new ones.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_DRIVER_REPORT_BASELINE_H
#define TORCH_TIDY_DRIVER_REPORT_BASELINE_H

#include "driver/report/Findings.h"
#include <map>

namespace torch_tidy {

struct Baseline {
  /// How many findings with each fingerprint the baseline accepts.
  std::map<std::string, unsigned> Accepted;
};

/// Parses a baseline file's text; false and \p Error on malformed input.
bool parseBaseline(llvm::StringRef Text, Baseline &Out, std::string &Error);
bool readBaseline(llvm::StringRef Path, Baseline &Out, std::string &Error);

/// The text of a baseline holding \p Findings.
std::string baselineText(const std::vector<Finding> &Findings,
                         SourceFiles &Sources);

/// Removes the findings the baseline accepts; returns how many.
unsigned applyBaseline(std::vector<Finding> &Findings, const Baseline &B);

} // namespace torch_tidy

#endif
