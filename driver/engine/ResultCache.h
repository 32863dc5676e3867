//===--- ResultCache.h - results of unchanged translation units -*- C++ -*-===//
//
// A translation unit whose every input is unchanged gives the same result:
// the cache keys a result by the tool (its version and its own binary), the
// compile command, the effective options and the main file, and stores with
// it the content hash of every file the unit read and the timestamp of every
// directory it searched. A result is served only when all of them still
// match. Entries are written atomically (safe under concurrent runs), and the
// cache is kept under a size bound, least recently used first.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_DRIVER_ENGINE_RESULTCACHE_H
#define TORCH_TIDY_DRIVER_ENGINE_RESULTCACHE_H

#include "base/UnitResult.h"
#include "driver/engine/Dependencies.h"
#include "clang/Tooling/CompilationDatabase.h"

#include <optional>

namespace torch_tidy {

class ResultCache {
public:
  /// \p Dir is created on first store; \p MaxBytes bounds its size.
  ResultCache(std::string Dir, uint64_t MaxBytes);

  /// The key of a unit: everything that decides its result apart from the
  /// files it reads.
  static std::string key(llvm::StringRef ToolIdentity,
                         const clang::tooling::CompileCommand &Command,
                         llvm::StringRef EffectiveOptions,
                         llvm::StringRef ExtraKey, llvm::StringRef MainFileHash);

  /// The cached result, if every dependency is unchanged (files read
  /// through \p Memo when given).
  std::optional<TUResult> lookup(llvm::StringRef Key,
                                 FileStateMemo *Memo = nullptr);
  void store(llvm::StringRef Key, const TUResult &Result);

  /// A hash of the running torch-tidy binary and its version.
  static std::string toolIdentity(const char *Argv0, void *MainAddr);

private:
  void trim();
  std::string Dir;
  uint64_t MaxBytes;
};

/// Removes the least recently used files of \p Dir (by modification time)
/// until it holds at most 80% of \p MaxBytes, once it holds more than that.
void trimCacheDirectory(llvm::StringRef Dir, uint64_t MaxBytes);

} // namespace torch_tidy

#endif
