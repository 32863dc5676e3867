//===--- ExportedFixes.h - diagnostics as --export-fixes YAML ---*- C++ -*-===//
//
// clang-tidy's --export-fixes format, written through clang::tooling's YAML
// traits, so that clang-apply-replacements and editors read it.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_DRIVER_REPORT_EXPORTEDFIXES_H
#define TORCH_TIDY_DRIVER_REPORT_EXPORTEDFIXES_H

#include "driver/report/Findings.h"

namespace torch_tidy {

/// The YAML document of \p Findings; \p MainFile names the unit of a run
/// over one unit, else is empty.
std::string exportedFixesYaml(const std::vector<Finding> &Findings,
                              llvm::StringRef MainFile);

} // namespace torch_tidy

#endif
