//===--- Setup.h - stage 1: what a run is configured with -------*- C++ -*-===//
//
// Checks the inputs, builds clang-tidy's options (defaults, .clang-tidy
// files or --config, the flags), loads the compilation database, rejects a
// broken .clang-tidy, and says which checks run.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_DRIVER_RUN_SETUP_H
#define TORCH_TIDY_DRIVER_RUN_SETUP_H

#include "driver/Options.h"

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang/Tooling/CompilationDatabase.h"

#include <memory>
#include <set>
#include <string>
#include <vector>

namespace torch_tidy {

struct RunSetup {
  std::unique_ptr<clang::tooling::CompilationDatabase> Compilations;
  std::unique_ptr<clang::tidy::ClangTidyContext> Context;
  /// The checks enabled for the first input.
  std::vector<std::string> Enabled;
  /// Whether .clang-tidy files are read (no --config or --config-file) and
  /// must be valid; a worker leaves that to the run that started it.
  bool CheckConfigs = false;

  /// Fails on a .clang-tidy file that configures \p File and cannot be
  /// parsed; each file is read once.
  bool checkConfigsOf(llvm::StringRef File, std::string &Error);

private:
  std::set<std::string> CheckedConfigs;
};

/// clang-tidy's options for this command line (defaults, .clang-tidy files
/// or --config/--config-file, the flags), with the torch checks as the
/// default check set where nothing names checks. Null and \p Error set on an
/// invalid configuration.
std::unique_ptr<clang::tidy::ClangTidyOptionsProvider>
makeOptionsProvider(const DriverOptions &Opts, std::string &Error);

/// Stage 1. False when the run ends here: \p Exit is its exit code, and any
/// error has been printed.
bool setUpRun(const DriverOptions &Opts, RunSetup &Setup, int &Exit);

/// Prints "torch-tidy: error: <Message>"; returns ExitToolFailure.
int fail(const std::string &Message);

} // namespace torch_tidy

#endif
