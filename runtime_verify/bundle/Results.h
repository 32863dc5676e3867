//===--- Results.h - how each step of a bundle's run ended ------*- C++ -*-===//
//
// Every step of a run (configuring, building a program, running it) leaves
// a .status file of one line: "exit N", "signal N" or "timeout S". The run
// script writes them on the machine that runs the bundle; verify writes the
// same files for the programs it builds or runs itself, and the judge reads
// them back.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_RUNTIME_VERIFY_BUNDLE_RESULTS_H
#define TORCH_TIDY_RUNTIME_VERIFY_BUNDLE_RESULTS_H

#include "base/Process.h"

#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace torch_tidy::verify {

/// The status line of \p R ("exit 0", "signal 11", "timeout 300").
std::string statusLine(const ProcessResult &R, unsigned TimeoutSeconds);

/// Writes \p R as the status file \p Path (atomically).
llvm::Error writeStatus(const std::string &Path, const ProcessResult &R,
                        unsigned TimeoutSeconds);

/// How the step whose status file is \p Path ended; std::nullopt when there
/// is no such file (the step never ended); an error when the file says
/// something else than a status line.
llvm::Expected<std::optional<ProcessResult>> readStatus(const std::string &Path);

} // namespace torch_tidy::verify

#endif
