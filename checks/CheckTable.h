//===--- CheckTable.h - every torch-* check, one row each -------*- C++ -*-===//
//
// The check table (its rows are in checks/Checks.def) is the one place that
// says which checks exist. A row holds a check's name (what users write in
// -checks, .clang-tidy and NOLINT), its class, the one-sentence summary
// (SARIF rule metadata), and how `torch-tidy verify` confirms its findings
// by running them. The module registers every row; the SARIF writer,
// --list-checks and runtime verification read the rows. A check's
// documentation page is docs/checks/<name>.md and its test
// test/checks/<name>.cpp (test/checks/check-table.test holds them to it).
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_CHECKS_CHECKTABLE_H
#define TORCH_TIDY_CHECKS_CHECKTABLE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <memory>
#include <string>

namespace clang::tidy {
class ClangTidyCheck;
class ClangTidyContext;
} // namespace clang::tidy

namespace torch_tidy {

/// How `torch-tidy verify` watches a finding of a check while the program
/// runs, and what it takes as confirmation.
enum class VerifyProbe {
  /// verify does not run this check's findings.
  None,
  /// The variable the finding's first note declares (the check attaches
  /// that note at the declaration): sampled at the end of every iteration of
  /// the loop around the finding, or of every call when it is a member,
  /// global or static. Confirmed when its autograd graph grows.
  DeclaredTarget,
  /// The tensor whose backward() the finding flags, sampled after the
  /// flagged statement. Confirmed when the graph or the live bytes grow.
  BackwardTensor,
  /// The result of the flagged forward call, sampled as it passes.
  /// Confirmed when every forward builds a graph.
  ForwardResult,
};

using CheckFactory = std::unique_ptr<clang::tidy::ClangTidyCheck> (*)(
    llvm::StringRef Name, clang::tidy::ClangTidyContext *Context);

struct CheckRow {
  const char *Name;
  CheckFactory Make;
  const char *Summary;
  VerifyProbe Verify;

  /// Its documentation page, in docs/checks/: "<name>.md".
  std::string docPage() const;
};

/// Every row, in the order of the table (by name).
llvm::ArrayRef<CheckRow> checkTable();

/// The row of \p Name, or null when it is not a torch-tidy check.
const CheckRow *findCheck(llvm::StringRef Name);

/// The name the table gives to the check made by \p Make.
llvm::StringRef checkNameOf(CheckFactory Make);

template <class Check>
std::unique_ptr<clang::tidy::ClangTidyCheck>
makeCheck(llvm::StringRef Name, clang::tidy::ClangTidyContext *Context) {
  return std::make_unique<Check>(Name, Context);
}

/// The name of check class \p Check in the table (for a check that asks
/// whether another one runs).
template <class Check> llvm::StringRef checkName() {
  return checkNameOf(&makeCheck<Check>);
}

} // namespace torch_tidy

#endif
