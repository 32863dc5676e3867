//===--- Paths.cpp - joining file system paths ----------------------------===//

#include "base/Paths.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"

namespace torch_tidy {

std::string joinPath(llvm::StringRef A, llvm::StringRef B) {
  llvm::SmallString<256> P(A);
  llvm::sys::path::append(P, B);
  return std::string(P);
}

} // namespace torch_tidy
