//===--- ApplyCommand.cpp - torch-tidy apply-fixes ------------------------===//
//
//   torch-tidy apply-fixes FIXES.yaml...
//
// Applies exported fixes (--export-fixes, or shards merged with
// `torch-tidy merge --format=fixes`) the way --fix does: a replacement listed
// twice applied once, a fix that conflicts with another skipped as a whole,
// files written atomically.
//
//===----------------------------------------------------------------------===//

#include "driver/commands/ApplyCommand.h"

#include "driver/ExitCodes.h"
#include "fixits/ApplyFixes.h"

#include "clang/Tooling/DiagnosticsYaml.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/YAMLTraits.h"
#include "llvm/Support/raw_ostream.h"

namespace torch_tidy {

int applyFixesMain(int Argc, const char **Argv) {
  std::vector<FixRequest> Requests;
  if (Argc < 2) {
    llvm::errs() << "usage: torch-tidy apply-fixes FIXES.yaml...\n";
    return ExitToolFailure;
  }
  for (int I = 1; I < Argc; ++I) {
    auto Buffer = llvm::MemoryBuffer::getFile(Argv[I], /*IsText=*/true);
    if (!Buffer) {
      llvm::errs() << "torch-tidy apply-fixes: error: cannot read '" << Argv[I]
                   << "': " << Buffer.getError().message() << "\n";
      return ExitToolFailure;
    }
    clang::tooling::TranslationUnitDiagnostics TUD;
    llvm::yaml::Input YIn((*Buffer)->getBuffer());
    YIn >> TUD;
    if (YIn.error()) {
      llvm::errs() << "torch-tidy apply-fixes: error: '" << Argv[I]
                   << "' is not exported fixes\n";
      return ExitToolFailure;
    }
    for (const clang::tooling::Diagnostic &D : TUD.Diagnostics) {
      FixRequest Req;
      Req.Description = D.Message.FilePath + ": " + D.DiagnosticName;
      for (const auto &F : D.Message.Fix)
        for (const clang::tooling::Replacement &R : F.getValue())
          Req.Replacements.push_back(R);
      Requests.push_back(std::move(Req));
    }
  }
  FixReport Report = applyFixes(Requests, ApplyOptions());
  for (const std::string &W : Report.Warnings)
    llvm::errs() << "torch-tidy apply-fixes: warning: " << W << "\n";
  for (const std::string &E : Report.Errors)
    llvm::errs() << "torch-tidy apply-fixes: error: " << E << "\n";
  llvm::errs() << "torch-tidy applied " << Report.AppliedFixes << " of "
               << Report.TotalFixes << " suggested fixes.\n";
  return Report.Errors.empty() ? ExitClean : ExitToolFailure;
}

} // namespace torch_tidy
