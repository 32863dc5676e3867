//===--- FastChecks.cpp - the torch-* checks pass clangd's latency gate ---===//
//
// clangd runs only the clang-tidy checks it knows to be fast unless a user
// sets `Diagnostics: {ClangTidy: {FastCheckFilter: Loose}}` (or None): its
// default filter, Strict, drops every check missing from the latency table
// compiled into it (clangd's TidyFastChecks.inc), which no check outside
// LLVM's tree can be in. Without this file, `Add: ['torch-*']` in .clangd
// would enable checks that then never run.
//
// The table is read only through clang::clangd::isFastTidyCheck, called from
// ParsedAST.cpp (the filter) and ConfigCompile.cpp (its log message), both
// in libclangDaemon.a. The link wraps that function (GNU ld / lld
// `--wrap`, see CMakeLists.txt): calls from those objects land here, which
// answers "fast" for the torch-* checks and asks clangd's table for the
// rest. Their latency on a file with <torch/torch.h> is measured in
// docs/performance.md.
//
//===----------------------------------------------------------------------===//

#include "llvm/ADT/StringRef.h"

#include <optional>

// clangd's own function, renamed to __real_<symbol> by --wrap.
std::optional<bool> clangdIsFastTidyCheck(llvm::StringRef Check) asm(
    "__real__ZN5clang6clangd15isFastTidyCheckEN4llvm9StringRefE");

// What clangd calls instead, named __wrap_<symbol> for --wrap.
std::optional<bool> torchClangdIsFastTidyCheck(llvm::StringRef Check) asm(
    "__wrap__ZN5clang6clangd15isFastTidyCheckEN4llvm9StringRefE");

std::optional<bool> torchClangdIsFastTidyCheck(llvm::StringRef Check) {
  if (Check.starts_with("torch-"))
    return true;
  return clangdIsFastTidyCheck(Check);
}
