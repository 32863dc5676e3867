//===--- ExitCodes.h - what torch-tidy's exit status means ------*- C++ -*-===//

#ifndef TORCH_TIDY_DRIVER_EXITCODES_H
#define TORCH_TIDY_DRIVER_EXITCODES_H

namespace torch_tidy {

/// clang-tidy's, plus one a CI gate can tell apart from findings.
enum ExitCode {
  ExitClean = 0,      ///< no finding fails the gate
  ExitFindings = 1,   ///< findings fail the gate (--warnings-as-errors)
  ExitToolFailure = 2 ///< torch-tidy could not do its job
};

} // namespace torch_tidy

#endif
