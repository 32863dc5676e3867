//===--- Paths.cpp - joining file system paths ----------------------------===//

#include "runtime_verify/instrument/Paths.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"

namespace torch_tidy {
namespace verify {

std::string joinPath(llvm::StringRef A, llvm::StringRef B) {
  llvm::SmallString<256> P(A);
  llvm::sys::path::append(P, B);
  return std::string(P);
}

} // namespace verify
} // namespace torch_tidy
