//===--- CheckCatalogue.h - what each torch-* check is ----------*- C++ -*-===//
//
// The one-sentence summary and documentation page of every check, for SARIF
// rule metadata; and the documentation page of upstream checks.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_DRIVER_CHECKCATALOGUE_H
#define TORCH_TIDY_DRIVER_CHECKCATALOGUE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <string>

namespace torch_tidy {

struct CheckInfo {
  const char *Name;
  const char *Summary;
};

llvm::ArrayRef<CheckInfo> torchChecks();

/// The summary of \p Check, or "" when it is not one of ours.
llvm::StringRef checkSummary(llvm::StringRef Check);

/// Where \p Check is documented: \p TorchDocBase + "<check>.md" for ours,
/// clang's documentation for upstream checks and compiler diagnostics.
std::string checkHelpUri(llvm::StringRef Check, llvm::StringRef TorchDocBase);

} // namespace torch_tidy

#endif
