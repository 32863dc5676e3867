//===--- SourceFuzzer.cpp - arbitrary source through every torch-* check --===//
//
// libFuzzer target: the input is the text of a C++ file that can include the
// mock LibTorch headers of test/Inputs (<torch/torch.h>, ...). It runs every
// torch-* check on it, applies their fix-its to the text the way --fix does,
// and runs the checks again on the fixed text. Any crash, sanitizer report or
// fix-it that cannot be applied to the file it names stops the fuzzer.
//
//===----------------------------------------------------------------------===//

#include "driver/engine/Engine.h"

#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "clang/Tooling/Core/Replacement.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

using namespace clang;
using namespace clang::tidy;

static const char InputPath[] = "/torch-tidy-fuzz/input.cpp";

static const char *const CheckedOptions[] = {
    "torch-eval-without-grad-guard.AssumeUnknownTensorsCarryHistory",
    "torch-graph-accumulation.AssumeUnknownTensorsCarryHistory",
    "torch-graph-in-container.AssumeUnknownTensorsCarryHistory",
};

namespace {

// How one input is run: with the checks' default options or the others, and
// over the whole translation unit (as the plugin in clang-tidy) or over the
// user's code only (as torch-tidy).
struct Mode {
  bool OtherOptions;
  bool UserCodeOnly;
};

} // namespace

// Runs every torch-* check on Code and returns what they report, with the
// compiler's own errors.
static std::vector<ClangTidyError> runChecks(llvm::StringRef Code, Mode M) {
  ClangTidyOptions Options = ClangTidyOptions::getDefaults();
  Options.Checks = "-*,torch-*";
  if (M.OtherOptions) {
    for (const char *Name : CheckedOptions)
      Options.CheckOptions[Name] = ClangTidyOptions::ClangTidyValue("true");
    Options.CheckOptions["torch-eval-without-grad-guard.GuardType"] =
        ClangTidyOptions::ClangTidyValue("InferenceMode");
  }
  ClangTidyContext Context(std::make_unique<DefaultOptionsProvider>(
      ClangTidyGlobalOptions(), Options));
  ClangTidyDiagnosticConsumer DiagConsumer(Context, nullptr,
                                           /*RemoveIncompatibleErrors=*/true,
                                           /*GetFixesFromNotes=*/true);
  DiagnosticsEngine Diags(llvm::makeIntrusiveRefCnt<DiagnosticIDs>(),
                          llvm::makeIntrusiveRefCnt<DiagnosticOptions>(),
                          &DiagConsumer, /*ShouldOwnClient=*/false);
  Context.setDiagnosticsEngine(&Diags);

  auto Files = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  Files->addFile(InputPath, 0,
                 llvm::MemoryBuffer::getMemBufferCopy(Code, InputPath));
  auto FS = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(
      llvm::vfs::getRealFileSystem());
  FS->pushOverlay(Files);

  tooling::FixedCompilationDatabase Compilations(
      TORCH_TIDY_MOCK_TORCH_DIR,
      {"-std=c++17", "-resource-dir=" TORCH_TIDY_RESOURCE_DIR, "-isystem",
       TORCH_TIDY_MOCK_TORCH_DIR});
  tooling::ClangTool Tool(Compilations, {InputPath},
                          std::make_shared<PCHContainerOperations>(), FS);
  Tool.setDiagnosticConsumer(&DiagConsumer);
  // torch-tidy's own action, with or without its speed-ups.
  torch_tidy::DriverOptions Opts;
  Opts.SkipSystemBodies = Opts.TraversalScope = M.UserCodeOnly;
  torch_tidy::TUResult Result;
  std::unique_ptr<tooling::FrontendActionFactory> Factory =
      torch_tidy::newChecksActionFactory(Context, Opts, Result);
  Tool.run(Factory.get());
  return DiagConsumer.take();
}

// The text after applying every torch-* fix-it, the way --fix-errors would
// (a fix that conflicts with an earlier one is left out, as clang-tidy does).
static std::string applyFixes(llvm::StringRef Code,
                              const std::vector<ClangTidyError> &Errors) {
  tooling::Replacements Accepted;
  for (const ClangTidyError &Error : Errors) {
    if (!llvm::StringRef(Error.DiagnosticName).starts_with("torch-"))
      continue;
    const llvm::StringMap<tooling::Replacements> *Fix =
        getFixIt(Error, /*AnyFix=*/true);
    if (!Fix)
      continue;
    for (const auto &FileAndReplacements : *Fix) {
      if (FileAndReplacements.first() != InputPath) {
        llvm::errs() << Error.DiagnosticName << " fixes a file other than "
                     << "the one checked: " << FileAndReplacements.first()
                     << "\n";
        std::abort();
      }
      for (const tooling::Replacement &R : FileAndReplacements.second)
        if (llvm::Error Conflict = Accepted.add(R))
          llvm::consumeError(std::move(Conflict));
    }
  }
  llvm::Expected<std::string> Fixed =
      tooling::applyAllReplacements(Code, Accepted);
  if (!Fixed) {
    llvm::errs() << "a fix-it cannot be applied to the file: "
                 << llvm::toString(Fixed.takeError()) << "\n";
    std::abort();
  }
  return std::move(*Fixed);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Code(reinterpret_cast<const char *>(Data), Size);
  // One input in two runs with the other options; one in four runs over the
  // whole translation unit (the plugin's way, slower).
  Mode M{Size % 2 == 1, Size % 8 >= 2};
  std::string Fixed = applyFixes(Code, runChecks(Code, M));
  if (Fixed != Code)
    applyFixes(Fixed, runChecks(Fixed, M));
  return 0;
}
