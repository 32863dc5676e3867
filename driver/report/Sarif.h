//===--- Sarif.h - diagnostics as SARIF 2.1.0 -------------------*- C++ -*-===//

#ifndef TORCH_TIDY_DRIVER_REPORT_SARIF_H
#define TORCH_TIDY_DRIVER_REPORT_SARIF_H

#include "driver/report/Findings.h"
#include "llvm/Support/JSON.h"

namespace torch_tidy {

/// A SARIF 2.1.0 log with one run: rules for every check that reported and
/// every torch-* check, results with paths relative to \p Root (as base id
/// SRCROOT), notes as related locations, fixes, and fingerprints.
llvm::json::Value findingsToSarif(const std::vector<Finding> &Findings,
                                  SourceFiles &Sources, llvm::StringRef Root,
                                  llvm::StringRef DocBase);

/// A file:// URI for an absolute path.
std::string fileUri(llvm::StringRef Path);

} // namespace torch_tidy

#endif
