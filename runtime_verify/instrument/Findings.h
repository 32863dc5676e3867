//===--- Findings.h - the growth findings torch-tidy exported -------------===//
#ifndef TORCH_TIDY_RUNTIME_VERIFY_FINDINGS_H
#define TORCH_TIDY_RUNTIME_VERIFY_FINDINGS_H

#include "clang/Tooling/Core/Replacement.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace torch_tidy {
namespace verify {

/// The checks whose findings `verify` can run.
bool isVerifiableCheck(llvm::StringRef Check);
/// "-*,torch-graph-accumulation,..." for torch-tidy's -checks=.
std::string verifiableChecksFilter();

/// One diagnostic of a verifiable check in the analysed file.
struct Finding {
  std::string Check;
  std::string Message;
  unsigned Offset = 0; ///< in the analysed file
  unsigned Line = 0;
  clang::tooling::Replacements Fix; ///< edits of the analysed file
};

/// Reads an --export-fixes YAML file and keeps the verifiable findings in
/// `File` (its bytes are `Code`), in file order.
llvm::Expected<std::vector<Finding>> readFindings(const std::string &YamlPath,
                                                  const std::string &File,
                                                  llvm::StringRef Code);

/// The 1-based line of an offset.
unsigned lineOfOffset(llvm::StringRef Code, unsigned Offset);

} // namespace verify
} // namespace torch_tidy

#endif
