//===--- VerifyReport.h - what `torch-tidy verify` found, and printing it -===//
#ifndef TORCH_TIDY_DRIVER_VERIFYREPORT_H
#define TORCH_TIDY_DRIVER_VERIFYREPORT_H

#include "runtime_verify/instrument/Growth.h"

#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace torch_tidy {

/// One run of one variant (the program as written, or with the fix).
struct VariantResult {
  bool Ran = false;
  std::string Error; ///< why it could not run
  verify::GrowthFigures Figures;
  bool Confirmed = false;
  std::vector<bool> RepeatVerdicts; ///< one per run, when repeated
  bool stable() const {
    for (bool V : RepeatVerdicts)
      if (V != Confirmed)
        return false;
    return true;
  }
};

struct FindingResult {
  std::string File; ///< as the user named it
  unsigned Line = 0;
  std::string Check;
  std::string Error; ///< could not run at all
  std::string Target, Where;
  VariantResult Original;
  bool HasFix = false;
  VariantResult Fixed;
};

/// "confirmed", "not confirmed" or "could not run".
std::string verdictOf(const FindingResult &R);

void printText(llvm::raw_ostream &OS, const std::vector<FindingResult> &Results);
void printJson(llvm::raw_ostream &OS, const std::vector<FindingResult> &Results);

/// 0 nothing confirmed, 1 something confirmed, 2 something could not run.
int exitCodeFor(const std::vector<FindingResult> &Results);

/// Prints "torch-tidy verify: error: <Message>" and returns exit code 2.
int verifyError(const std::string &Message);

} // namespace torch_tidy

#endif
