//===--- VerifyReport.h - what `torch-tidy verify` found, and printing it -===//
#ifndef TORCH_TIDY_RUNTIME_VERIFY_COMMAND_VERIFYREPORT_H
#define TORCH_TIDY_RUNTIME_VERIFY_COMMAND_VERIFYREPORT_H

#include "runtime_verify/bundle/Manifest.h"
#include "runtime_verify/instrument/Findings.h"
#include "runtime_verify/instrument/Growth.h"
#include "runtime_verify/instrument/Instrumenter.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace torch_tidy::verify {

/// One run of one variant (the program as written, or with the fix).
struct VariantResult {
  bool Ran = false;
  std::string Error; ///< why it could not run
  GrowthFigures Figures;
  bool Confirmed = false;
  std::vector<bool> RepeatVerdicts; ///< one per run, when repeated
  std::vector<double> RunSeconds;   ///< each run's wall time, when recorded
  /// At the CUDA allocator's rate, the iterations until MemoryLimit bytes
  /// are held (on a GPU, when the limit is known and the bytes grow).
  std::optional<double> OutOfMemoryAfter;
  double MemoryLimit = 0;
  bool stable() const {
    for (bool V : RepeatVerdicts)
      if (V != Confirmed)
        return false;
    return true;
  }
};

struct FindingResult : FindingFacts {
  std::string File; ///< as verdicts name it
  VariantResult Original;
  VariantResult Fixed;

  /// Finding \p F in \p File, before it runs.
  static FindingResult of(const std::string &File, const FindingFacts &F) {
    FindingResult R;
    static_cast<FindingFacts &>(R) = F;
    R.File = File;
    return R;
  }
};

/// "confirmed", "not confirmed" or "could not run".
std::string verdictOf(const FindingResult &R);

void printText(llvm::raw_ostream &OS, const std::vector<FindingResult> &Results);
void printJson(llvm::raw_ostream &OS, const std::vector<FindingResult> &Results);
/// printJson when \p Format is "json", else printText and a line for each
/// of \p WithoutFindings ("FILE: no growth finding to verify").
void printResults(llvm::raw_ostream &OS, const std::vector<FindingResult> &Results,
                  llvm::StringRef Format, const std::vector<std::string> &WithoutFindings = {});

/// The figures of \p V as JSON (what printJson writes for a variant).
llvm::json::Value variantJson(const VariantResult &V);

/// 0 nothing confirmed, 1 something confirmed, 2 something could not run.
int exitCodeFor(const std::vector<FindingResult> &Results);

/// Prints "torch-tidy verify: error: <Message>" and returns exit code 2.
int verifyError(const std::string &Message);

} // namespace torch_tidy::verify

#endif
