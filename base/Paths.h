//===--- Paths.h - joining file system paths --------------------*- C++ -*-===//

#ifndef TORCH_TIDY_BASE_PATHS_H
#define TORCH_TIDY_BASE_PATHS_H

#include "llvm/ADT/StringRef.h"
#include <string>

namespace torch_tidy {

/// \p A and \p B joined with the platform's separator.
std::string joinPath(llvm::StringRef A, llvm::StringRef B);

} // namespace torch_tidy

#endif
