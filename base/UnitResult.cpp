//===--- UnitResult.cpp - what analysing one unit gave --------------------===//

#include "base/UnitResult.h"

#include "llvm/ADT/STLExtras.h"

namespace torch_tidy {

bool TUResult::hasCompilerErrors() const {
  for (const clang::tidy::ClangTidyError &E : Errors)
    if (E.DiagLevel == clang::tidy::ClangTidyError::Error &&
        llvm::StringRef(E.DiagnosticName).starts_with("clang-diagnostic-"))
      return true;
  return false;
}

TUResult TUResult::failure(std::string File, std::string Why) {
  TUResult R;
  R.MainFile = std::move(File);
  R.Failed = true;
  R.FailureMessage = std::move(Why);
  return R;
}

std::vector<std::string>
sortedFixFiles(const llvm::StringMap<clang::tooling::Replacements> &Fix) {
  std::vector<std::string> Files;
  for (const auto &E : Fix)
    Files.push_back(E.getKey().str());
  llvm::sort(Files);
  return Files;
}

} // namespace torch_tidy
