//===--- CacheFolder.h - where torch-tidy keeps what it caches --*- C++ -*-===//
//
// The one rule for the cache folder of every cache: the check run's results
// (results/) and precompiled preambles (preambles/), and verify's
// precompiled <torch/torch.h> and probe objects.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_BASE_CACHEFOLDER_H
#define TORCH_TIDY_BASE_CACHEFOLDER_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace torch_tidy {

/// \p Chosen (a --cache-dir) when it is not empty; else
/// $TORCH_TIDY_CACHE_DIR, else $XDG_CACHE_HOME/torch-tidy, else
/// ~/.cache/torch-tidy, else the temporary folder's torch-tidy.
std::string cacheFolder(llvm::StringRef Chosen = "");

} // namespace torch_tidy

#endif
