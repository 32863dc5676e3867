//===--- ApplyFixes.h - applying fixes from many diagnostics ----*- C++ -*-===//
//
// Applies the fixes of a whole run: replacements from every translation unit
// merged, a replacement reported twice (a shared header) applied once, a fix
// that conflicts with one already taken skipped as a whole (never half
// applied), a file that changed since it was analysed or that is read-only
// left alone, and every file written atomically.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_FIXITS_APPLYFIXES_H
#define TORCH_TIDY_FIXITS_APPLYFIXES_H

#include "clang/Tooling/Core/Replacement.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace torch_tidy {

/// One diagnostic's fix: replacements with absolute paths.
struct FixRequest {
  std::vector<clang::tooling::Replacement> Replacements;
  std::string Description; // "file:line: check", for messages
};

enum class FixOutcome { NoFix, Applied, Conflict, FileRefused };

struct FixReport {
  std::vector<FixOutcome> Outcomes; // one per request
  unsigned AppliedFixes = 0, TotalFixes = 0;
  std::vector<std::string> Errors;   // a file that could not be written
  std::vector<std::string> Warnings; // conflicts, changed files
};

struct ApplyOptions {
  /// The hash each file had when it was analysed; a file whose hash now
  /// differs is refused. Files not listed are not checked.
  std::map<std::string, std::string> ExpectedHashes;
  std::function<std::string(llvm::StringRef Path)> CurrentHash;
  /// The clang-format style for a file ("none" to only clean up).
  std::function<std::string(llvm::StringRef Path)> FormatStyle;
  /// Write files; when false, only compute outcomes.
  bool Write = true;
};

FixReport applyFixes(const std::vector<FixRequest> &Requests,
                     const ApplyOptions &Options);

} // namespace torch_tidy

#endif
