//===--- JsonReport.h - diagnostics as JSON ---------------------*- C++ -*-===//
//
// --format=json: one object per diagnostic (check, level, file, line,
// column, message, notes, fixes, fingerprint), in a JSON array.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_DRIVER_REPORT_JSONREPORT_H
#define TORCH_TIDY_DRIVER_REPORT_JSONREPORT_H

#include "driver/report/Findings.h"
#include "llvm/Support/JSON.h"

namespace torch_tidy {

llvm::json::Array findingsToJSON(const std::vector<Finding> &Findings,
                                 SourceFiles &Sources);

} // namespace torch_tidy

#endif
