//===--- Paths.h - joining file system paths ---------------------*- C++ -*-===//

#ifndef TORCH_TIDY_RUNTIME_VERIFY_PATHS_H
#define TORCH_TIDY_RUNTIME_VERIFY_PATHS_H

#include "llvm/ADT/StringRef.h"
#include <string>

namespace torch_tidy {
namespace verify {

/// \p A and \p B joined with the platform's separator.
std::string joinPath(llvm::StringRef A, llvm::StringRef B);

} // namespace verify
} // namespace torch_tidy

#endif
