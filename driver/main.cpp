//===--- main.cpp - the torch-tidy binary ---------------------------------===//
//
// clang-tidy's own command line, flags and output, with the torch-* checks
// linked in next to every upstream check. Check runs go through torch-tidy's
// engine (project-wide runs, workers, JSON/SARIF, baselines, safe fixes);
// informational flags (--list-checks, --dump-config, --help, ...) go to
// clang-tidy's own main.
//
//===----------------------------------------------------------------------===//

#include "clang-tidy/tool/ClangTidyMain.h"
#include "runtime_verify/command/Verify.h"
#include "driver/Merge.h"
#include "driver/Options.h"
#include "driver/Run.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

extern volatile int TorchTidyModuleAnchorSource;

static std::string projectHelpText() {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  torch_tidy::printProjectHelp(OS);
  return Text;
}

static void printVersion(llvm::raw_ostream &OS) {
  OS << "torch-tidy version " << TORCH_TIDY_VERSION << "\n"
     << "  built with LLVM version " << LLVM_VERSION_STRING << "\n"
     << "  clang resource directory " << TORCH_TIDY_RESOURCE_DIR << "\n";
}

int main(int argc, const char **argv) {
  (void)TorchTidyModuleAnchorSource;
  llvm::cl::SetVersionPrinter(printVersion);

  // Subcommands: verify, merge.
  if (argc > 1 && llvm::StringRef(argv[1]) == "verify")
    return torch_tidy::verify::verifyMain(argc - 1, argv + 1);
  if (argc > 1 && llvm::StringRef(argv[1]) == "merge")
    return torch_tidy::mergeMain(argc - 1, argv + 1);
  if (argc > 1 && llvm::StringRef(argv[1]) == "apply-fixes")
    return torch_tidy::applyFixesMain(argc - 1, argv + 1);

  torch_tidy::DriverOptions Opts;
  std::string Error;
  if (!torch_tidy::parseCommandLine(llvm::ArrayRef(argv + 1, argc - 1), Opts,
                                   Error)) {
    llvm::errs() << "torch-tidy: error: " << Error << "\n";
    return torch_tidy::ExitToolFailure;
  }
  if (Opts.NeedsClangTidyMain.empty())
    return torch_tidy::runChecks(Opts, argv[0]);
  if (!Opts.ProjectFlag.empty()) {
    llvm::errs() << "torch-tidy: error: " << Opts.NeedsClangTidyMain
                 << " cannot be combined with " << Opts.ProjectFlag << "\n";
    return torch_tidy::ExitToolFailure;
  }
  static const std::string Help = projectHelpText();
  static llvm::cl::extrahelp ProjectHelp(Help.c_str());

  std::vector<const char *> Args(argv, argv + argc);
  // A binary outside LLVM's own bin/ directory would look for clang's builtin
  // headers next to itself. Name the directory it was built against first,
  // so that a user's own --extra-arg / --extra-arg-before still wins.
  static const std::string ResourceDirArg =
      std::string("--extra-arg-before=-resource-dir=") + TORCH_TIDY_RESOURCE_DIR;
  if (llvm::sys::fs::is_directory(TORCH_TIDY_RESOURCE_DIR))
    Args.insert(Args.begin() + 1, ResourceDirArg.c_str());
  return clang::tidy::clangTidyMain(static_cast<int>(Args.size()), Args.data());
}
