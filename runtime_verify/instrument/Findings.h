//===--- Findings.h - the growth findings torch-tidy exported -------------===//
#ifndef TORCH_TIDY_RUNTIME_VERIFY_FINDINGS_H
#define TORCH_TIDY_RUNTIME_VERIFY_FINDINGS_H

#include "checks/CheckTable.h"
#include "clang/Tooling/Core/Replacement.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace torch_tidy {
namespace verify {

/// How verify watches findings of \p Check (VerifyProbe::None: it does not).
VerifyProbe probeFor(llvm::StringRef Check);
/// "-*,<every check verify can run>" for torch-tidy's -checks=.
std::string verifiableChecksFilter();
/// The checks verify can run, "a, b, c", for its usage text.
std::string verifiableChecksList();

/// One diagnostic of a verifiable check in the analysed file.
struct Finding {
  std::string Check;
  VerifyProbe Probe = VerifyProbe::None;
  std::string Message;
  unsigned Offset = 0; ///< in the analysed file
  unsigned Line = 0;
  /// Where the finding's first note points: for VerifyProbe::DeclaredTarget,
  /// the declaration of the watched variable.
  std::string NoteFile;
  unsigned NoteOffset = 0;
  clang::tooling::Replacements Fix; ///< edits of the analysed file
};

/// Reads an --export-fixes YAML file and keeps the verifiable findings in
/// `File` (its bytes are `Code`), in file order.
llvm::Expected<std::vector<Finding>> readFindings(const std::string &YamlPath,
                                                  const std::string &File,
                                                  llvm::StringRef Code);

/// Whether \p A and \p B name the same file.
bool sameFile(llvm::StringRef A, llvm::StringRef B);

/// The 1-based line of an offset.
unsigned lineOfOffset(llvm::StringRef Code, unsigned Offset);

} // namespace verify
} // namespace torch_tidy

#endif
