//===--- main.cpp - the torch-clangd binary -------------------------------===//
//
// clangd 19 with the torch-* checks registered next to clangd's own
// clang-tidy checks. Everything is clangd's: its flags, configuration
// (.clangd, .clang-tidy), LSP features and logs. This file adds what a
// clangd built outside LLVM's tree needs: the clang resource directory it was
// built against (so that clang's builtin headers are found wherever the
// binary lives), and a version line naming torch-tidy. What torch-clangd
// changes in clangd itself is in FastChecks.cpp (the torch-* checks pass its
// latency filter) and PreambleBodies.cpp (the bodies of the project's own
// functions stay in preambles), and ProjectSummaries.cpp (the checks read
// the function summaries the last torch-tidy project run left).
//
//===----------------------------------------------------------------------===//

#include "clang-tidy/ClangTidyModule.h"
#include "clang-tidy/ClangTidyModuleRegistry.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace torch_tidy::clangd {
void useProjectSummaries(std::string CompileCommandsDir);
} // namespace torch_tidy::clangd

namespace clang::clangd {
// Defined in libclangdMain.a (clang-tools-extra/clangd/tool/ClangdMain.cpp);
// Debian ships no header for it.
int clangdMain(int argc, char *argv[]);
} // namespace clang::clangd

static bool isFlag(llvm::StringRef Arg, llvm::StringRef Name) {
  Arg.consume_front("-");
  Arg.consume_front("-");
  return Arg == Name || Arg.starts_with((Name + "=").str());
}

/// The arguments clangd reads: the command line's, then $CLANGD_FLAGS's.
static std::vector<std::string> clangdArguments(llvm::ArrayRef<char *> Args) {
  std::vector<std::string> All;
  for (llvm::StringRef Arg : Args.drop_front())
    All.push_back(Arg.str());
  std::optional<std::string> Env = llvm::sys::Process::GetEnv("CLANGD_FLAGS");
  llvm::SmallVector<llvm::StringRef, 8> EnvArgs;
  if (Env)
    llvm::StringRef(*Env).split(EnvArgs, ' ', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef Arg : EnvArgs)
    All.push_back(Arg.str());
  return All;
}

/// Whether \p Name is given on the command line or in $CLANGD_FLAGS, which
/// clangd reads as well.
static bool hasFlag(llvm::ArrayRef<char *> Args, llvm::StringRef Name) {
  for (const std::string &Arg : clangdArguments(Args))
    if (isFlag(Arg, Name))
      return true;
  return false;
}

/// The value of flag \p Name (--name=value or --name value), the last one
/// given; "" when it is not given.
static std::string flagValue(llvm::ArrayRef<char *> Args,
                             llvm::StringRef Name) {
  std::vector<std::string> All = clangdArguments(Args);
  std::string Value;
  for (size_t I = 0; I < All.size(); ++I) {
    llvm::StringRef Arg = All[I];
    if (!isFlag(Arg, Name))
      continue;
    auto [Flag, V] = Arg.split('=');
    if (Arg.contains('='))
      Value = V.str();
    else if (I + 1 < All.size())
      Value = All[I + 1];
  }
  return Value;
}

// Printed before clangd's own version. Editors and IDEs take the clangd
// version from the first "clangd version N" in this output (VS Code's clangd
// extension, Qt Creator, lsp-mode), so these lines must not contain that
// phrase: it stays clangd's.
static void printTorchVersion(llvm::raw_ostream &OS) {
  OS << "torch-clangd: clangd with the torch-* checks of torch-tidy\n"
     << "  torch-tidy version " << TORCH_TIDY_VERSION << "\n"
     << "  built with LLVM version " << LLVM_VERSION_STRING << "\n"
     << "  clang resource directory " << TORCH_TIDY_RESOURCE_DIR << "\n"
     << "  torch checks:";
  clang::tidy::ClangTidyCheckFactories Factories;
  for (const auto &Entry : clang::tidy::ClangTidyModuleRegistry::entries())
    if (Entry.getName() == "TorchTidyModule")
      Entry.instantiate()->addCheckFactories(Factories);
  std::vector<std::string> Names;
  for (const auto &Factory : Factories)
    Names.push_back(Factory.getKey().str());
  llvm::sort(Names);
  for (const std::string &Name : Names)
    OS << " " << Name;
  OS << "\n";
  OS.flush();
}

int main(int argc, char *argv[]) {
  std::vector<char *> Args(argv, argv + argc);
  // clangd prints its own version after ours.
  if (hasFlag(Args, "version"))
    printTorchVersion(llvm::outs());

  // A clangd outside LLVM's bin/ directory looks for clang's builtin headers
  // next to itself. Name the directory it was built against, unless the user
  // names one.
  static std::string ResourceDirArg =
      std::string("--resource-dir=") + TORCH_TIDY_RESOURCE_DIR;
  if (!hasFlag(Args, "resource-dir") &&
      llvm::sys::fs::is_directory(TORCH_TIDY_RESOURCE_DIR))
    Args.insert(Args.begin() + 1, ResourceDirArg.data());
  torch_tidy::clangd::useProjectSummaries(
      flagValue(Args, "compile-commands-dir"));
  Args.push_back(nullptr);
  return clang::clangd::clangdMain(static_cast<int>(Args.size()) - 1,
                                   Args.data());
}
