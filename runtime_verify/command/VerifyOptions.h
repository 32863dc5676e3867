//===--- VerifyOptions.h - the command line of `torch-tidy verify` --------===//
#ifndef TORCH_TIDY_RUNTIME_VERIFY_COMMAND_VERIFYOPTIONS_H
#define TORCH_TIDY_RUNTIME_VERIFY_COMMAND_VERIFYOPTIONS_H

#include <string>
#include <vector>

namespace torch_tidy::verify {

struct VerifyOptions {
  std::string File;               ///< the first of Files
  std::vector<std::string> Files; ///< the programs (one in the other modes)
  unsigned Line = 0; ///< 0: every finding
  unsigned Iterations = 30;
  unsigned Warmup = 5;
  unsigned Timeout = 300; ///< seconds per build or run
  unsigned Repeat = 1;
  std::string TorchDir;
  std::string CacheDir;
  std::string Compiler;
  std::string Format = "text";
  std::string KeepDir; ///< keep the bundle and the logs here
  std::string Device = "auto"; ///< cuda, cpu or auto: where the programs run
  double MemoryLimit = 0;      ///< bytes, for the out-of-memory estimate; 0: the GPU's
  std::string SarifIn, SarifOut; ///< a SARIF log to mark the verdicts in, and where
  // Bundles: the static half alone, and judging what a bundle's run left.
  std::string BundleDir;
  std::string JudgeDir;
  // Building a hand-probed program only.
  bool BuildOnly = false;
  std::string Output;
  // In-place mode for real projects.
  std::string BuildDir;
  std::string BuildCommand;
  std::string RunCommand;
  std::vector<std::string> CompileFlags;
};

/// Parses the arguments after `verify`; on error returns false with a
/// one-line message.
bool parseVerifyOptions(int Argc, const char **Argv, VerifyOptions &Out, std::string &Error);

/// The usage text (--help), with the checks whose findings verify runs.
std::string verifyUsage();

} // namespace torch_tidy::verify

#endif
