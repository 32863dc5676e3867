//===--- Fixes.cpp - stages 5 and 7: the fixes ----------------------------===//

#include "driver/run/Fixes.h"

#include "base/Hashing.h"

#include "llvm/Support/FormatVariadic.h"

using namespace clang;
using namespace clang::tidy;

namespace torch_tidy {
namespace {

/// The fix of a finding: its own, or with --fix-notes the one fix among its
/// notes (none when its notes offer two).
const llvm::StringMap<tooling::Replacements> *chosenFix(const ClangTidyError &E,
                                                        bool FromNotes) {
  if (!E.Message.Fix.empty())
    return &E.Message.Fix;
  if (!FromNotes)
    return nullptr;
  const llvm::StringMap<tooling::Replacements> *Found = nullptr;
  for (const tooling::DiagnosticMessage &N : E.Notes)
    if (!N.Fix.empty()) {
      if (Found)
        return nullptr; // two different fixes: none is chosen
      Found = &N.Fix;
    }
  return Found;
}

FixRequest requestOf(const Finding &F, bool FromNotes, SourceFiles &Sources) {
  FixRequest Req;
  if (const auto *Fix = chosenFix(F.Error, FromNotes))
    for (const auto &E : *Fix)
      for (const tooling::Replacement &R : E.getValue())
        if (R.isApplicable())
          Req.Replacements.push_back(R);
  LineColumn P =
      Sources.position(F.Error.Message.FilePath, F.Error.Message.FileOffset);
  Req.Description = llvm::formatv("{0}:{1}: {2}", F.Error.Message.FilePath,
                                  P.Line, F.Error.DiagnosticName);
  return Req;
}

void recordState(RunFixes &Fixes) {
  Fixes.State.clear();
  for (FixOutcome Out : Fixes.Report.Outcomes)
    Fixes.State.push_back(Out == FixOutcome::NoFix     ? 0
                          : Out == FixOutcome::Applied ? 1
                                                       : -1);
}

} // namespace

RunFixes planFixes(const DriverOptions &O, RunSetup &S,
                   const std::vector<Finding> &Findings, SourceFiles &Sources,
                   const std::vector<TUResult> &Results) {
  RunFixes Fixes;
  bool CompilerErrors = llvm::any_of(
      Results, [](const TUResult &R) { return R.hasCompilerErrors(); });
  Fixes.Disabled = CompilerErrors && !O.FixErrors;
  if (!O.fixRequested() || Fixes.Disabled)
    return Fixes;
  Fixes.Pending = true;
  for (const Finding &F : Findings)
    Fixes.Requests.push_back(requestOf(F, O.FixNotes, Sources));
  for (const TUResult &R : Results)
    for (const auto &H : R.ContentHashes)
      Fixes.Apply.ExpectedHashes[SourceFiles::absolute(H.first)] = H.second;
  Fixes.Apply.CurrentHash = [](llvm::StringRef P) { return fileHash(P); };
  ClangTidyContext *Context = S.Context.get();
  Fixes.Apply.FormatStyle = [Context](llvm::StringRef P) {
    return Context->getOptionsForFile(P).FormatStyle.value_or("none");
  };
  // Outcomes first: the outputs read the files as they were.
  Fixes.Apply.Write = false;
  Fixes.Report = applyFixes(Fixes.Requests, Fixes.Apply);
  recordState(Fixes);
  return Fixes;
}

void RunFixes::write() {
  if (!Pending)
    return;
  Apply.Write = true;
  Report = applyFixes(Requests, Apply);
}

} // namespace torch_tidy
