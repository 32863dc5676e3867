//===--- Instrumenter.h - place probes for growth findings ----------------===//
//
// For each finding, finds in the program's AST the flagged loop and the
// watched target, and plans the insertions that sample the target:
//  - a target declared before the loop: a scope guard first in the loop
//    body, which samples at the end of every iteration (`continue`, `break`
//    and exceptions included);
//  - a data member, global or static: the same guard first in the function
//    body, which samples at the end of every call;
//  - a target declared inside the loop (the tensor whose backward runs): a
//    sample right after the flagged statement;
//  - a forward call in evaluation code: the call's result is sampled as it
//    passes.
// The program's own text is never touched: insertions are applied to copies.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_RUNTIME_VERIFY_INSTRUMENTER_H
#define TORCH_TIDY_RUNTIME_VERIFY_INSTRUMENTER_H

#include "runtime_verify/instrument/Findings.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace torch_tidy {
namespace verify {

struct Insertion {
  unsigned Offset = 0;
  std::string Text;
};

/// Where and what to sample for one finding, or why it cannot be done.
struct ProbePlan {
  std::string Error; ///< non-empty: no probe can be placed
  std::string ProbeName;
  std::string Target; ///< the watched expression, as written
  std::string Where;  ///< "end of every iteration of the loop at line 12", ...
  std::vector<Insertion> Insertions;
};

/// A file the program's unit reads besides its own: its absolute path as
/// the preprocessor found it, and whether it was found as a system header.
struct IncludedFile {
  std::string Path;
  bool System = false;
};

struct ProgramPlan {
  bool HasMain = false;
  std::vector<ProbePlan> Plans;       ///< one per finding, same order
  std::vector<IncludedFile> Included; ///< parsed here, not from a precompiled header
};

/// Parses `Code` (the text of `File`) with `Flags` and plans a probe for
/// every finding; lists the files the unit includes.
llvm::Expected<ProgramPlan> planProbes(const std::string &File, llvm::StringRef Code,
                                       const std::vector<std::string> &Flags,
                                       const std::vector<Finding> &Findings);

/// The code with the insertions made.
std::string applyInsertions(llvm::StringRef Code, const std::vector<Insertion> &Insertions);

/// The code with the fix applied and the insertions (offsets of the
/// unfixed code) moved along and made.
llvm::Expected<std::string> applyFixAndInsertions(llvm::StringRef Code,
                                                  const clang::tooling::Replacements &Fix,
                                                  const std::vector<Insertion> &Insertions);

} // namespace verify
} // namespace torch_tidy

#endif
