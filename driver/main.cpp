//===--- main.cpp - the torch-tidy binary ---------------------------------===//
//
// clang-tidy's own command line, flags and output, with the torch-* checks
// linked in next to every upstream check. Check runs go through torch-tidy's
// engine (project-wide runs, workers, JSON/SARIF, baselines, safe fixes);
// informational flags (--list-checks, --dump-config, --help, ...) go to
// clang-tidy's own main. A first argument that names a subcommand runs it.
//
//===----------------------------------------------------------------------===//

#include "clang-tidy/tool/ClangTidyMain.h"
#include "driver/ExitCodes.h"
#include "driver/Options.h"
#include "driver/commands/ApplyCommand.h"
#include "driver/commands/Merge.h"
#include "driver/run/DefaultChecks.h"
#include "driver/run/Run.h"
#include "driver/run/Setup.h"
#include "runtime_verify/command/Verify.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

extern volatile int TorchTidyModuleAnchorSource;

namespace {

/// `torch-tidy <name> ...`: the subcommands, with their --help entries.
struct Subcommand {
  const char *Name;
  int (*Main)(int Argc, const char **Argv); ///< Argv[0] is the name
  torch_tidy::HelpEntry Help;
};

const Subcommand Subcommands[] = {
    {"merge",
     torch_tidy::mergeMain,
     {"torch-tidy merge [--format=json|sarif|fixes|baseline] -o <out> "
      "<inputs...>",
      "combine per-shard outputs"}},
    {"apply-fixes",
     torch_tidy::applyFixesMain,
     {"torch-tidy apply-fixes <fixes.yaml...>",
      "apply exported (or merged) fixes as --fix does"}},
    {"verify",
     torch_tidy::verify::verifyMain,
     {"torch-tidy verify ...", "run a flagged loop and measure its growth"}},
};

std::string projectHelpText() {
  std::vector<torch_tidy::HelpEntry> Entries;
  for (const Subcommand &S : Subcommands)
    Entries.push_back(S.Help);
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  torch_tidy::printProjectHelp(OS, Entries);
  return Text;
}

void printVersion(llvm::raw_ostream &OS) {
  OS << "torch-tidy version " << TORCH_TIDY_VERSION << "\n"
     << "  built with LLVM version " << LLVM_VERSION_STRING << "\n"
     << "  clang resource directory " << TORCH_TIDY_RESOURCE_DIR << "\n";
}

/// clang-tidy's own main, for the flags torch-tidy leaves to it.
int handOver(int argc, const char **argv,
             const torch_tidy::DriverOptions &Opts) {
  static const std::string Help = projectHelpText();
  static llvm::cl::extrahelp ProjectHelp(Help.c_str());
  std::vector<const char *> Args(argv, argv + argc);
  // A binary outside LLVM's own bin/ directory would look for clang's builtin
  // headers next to itself. Name the directory it was built against first,
  // so that a user's own --extra-arg / --extra-arg-before still wins.
  static const std::string ResourceDirArg =
      std::string("--extra-arg-before=-resource-dir=") +
      TORCH_TIDY_RESOURCE_DIR;
  if (llvm::sys::fs::is_directory(TORCH_TIDY_RESOURCE_DIR))
    Args.insert(Args.begin() + 1, ResourceDirArg.c_str());
  // --list-checks, --dump-config, ...: the set a run would use, the torch
  // checks where nothing names checks.
  static const std::string DefaultChecksArg =
      std::string("--checks=") + torch_tidy::TorchDefaultChecks;
  if (!Opts.Checks) {
    std::string Error;
    auto Provider = torch_tidy::makeOptionsProvider(Opts, Error);
    llvm::SmallString<256> Probe;
    if (!Opts.Files.empty())
      Probe = Opts.Files.front();
    else if (!llvm::sys::fs::current_path(Probe))
      llvm::sys::path::append(Probe, "dummy");
    if (Provider && !torch_tidy::userNamesChecks(*Provider, Probe))
      Args.insert(Args.begin() + 1, DefaultChecksArg.c_str());
  }
  return clang::tidy::clangTidyMain(static_cast<int>(Args.size()), Args.data());
}

} // namespace

int main(int argc, const char **argv) {
  (void)TorchTidyModuleAnchorSource;
  llvm::cl::SetVersionPrinter(printVersion);

  if (argc > 1)
    for (const Subcommand &S : Subcommands)
      if (llvm::StringRef(argv[1]) == S.Name)
        return S.Main(argc - 1, argv + 1);

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
  return handOver(argc, argv, Opts);
}
