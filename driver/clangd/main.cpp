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
// functions stay in preambles).
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

/// Whether \p Name is given on the command line or in $CLANGD_FLAGS, which
/// clangd reads as well.
static bool hasFlag(llvm::ArrayRef<char *> Args, llvm::StringRef Name) {
  for (llvm::StringRef Arg : Args.drop_front())
    if (isFlag(Arg, Name))
      return true;
  std::optional<std::string> Env = llvm::sys::Process::GetEnv("CLANGD_FLAGS");
  if (!Env)
    return false;
  llvm::SmallVector<llvm::StringRef, 8> EnvArgs;
  llvm::StringRef(*Env).split(EnvArgs, ' ', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef Arg : EnvArgs)
    if (isFlag(Arg, Name))
      return true;
  return false;
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
  Args.push_back(nullptr);
  return clang::clangd::clangdMain(static_cast<int>(Args.size()) - 1,
                                   Args.data());
}
