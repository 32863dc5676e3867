//===--- main.cpp - the torch-tidy binary ---------------------------------===//
//
// clang-tidy's own command line, flags, output and exit codes, with the
// torch-* checks linked in next to every upstream check.
//
//===----------------------------------------------------------------------===//

#include "clang-tidy/tool/ClangTidyMain.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

extern volatile int TorchTidyModuleAnchorSource;

static void printVersion(llvm::raw_ostream &OS) {
  OS << "torch-tidy version " << TORCH_TIDY_VERSION << "\n"
     << "  built with LLVM version " << LLVM_VERSION_STRING << "\n"
     << "  clang resource directory " << TORCH_TIDY_RESOURCE_DIR << "\n";
}

int main(int argc, const char **argv) {
  (void)TorchTidyModuleAnchorSource;
  llvm::cl::SetVersionPrinter(printVersion);

  // Subcommands: verify, merge.

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
