//===--- Hashing.h - content hashes and cache keys --------------*- C++ -*-===//
//
// The content hash every cache and every safe write compares files by, and
// the key a cache entry is stored under.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_BASE_HASHING_H
#define TORCH_TIDY_BASE_HASHING_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SHA1.h"

#include <string>

namespace torch_tidy {

/// A short, stable hash of \p Text.
std::string contentHash(llvm::StringRef Text);

/// The hash of a file as it is on disk now; empty when it cannot be read or
/// is not a regular file.
std::string fileHash(llvm::StringRef Path);

/// A cache key: a SHA-1 over length-prefixed parts, so that no two lists of
/// parts give the same text to hash.
class CacheKey {
public:
  explicit CacheKey(llvm::StringRef Kind) { add(Kind); }
  void add(llvm::StringRef Part);
  std::string hex();

private:
  llvm::SHA1 H;
};

} // namespace torch_tidy

#endif
