//===--- ApplyFixes.cpp - applying fixes from many diagnostics ------------===//

#include "fixits/ApplyFixes.h"

#include "base/AtomicWrite.h"
#include "clang/Format/Format.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>

using clang::tooling::Replacement;

namespace torch_tidy {
namespace {

struct Edit {
  unsigned Offset, Length;
  std::string Text;
  bool operator==(const Edit &O) const {
    return Offset == O.Offset && Length == O.Length && Text == O.Text;
  }
};

// Two edits conflict when they touch overlapping text, or insert different
// text at the same place.
bool conflicts(const Edit &A, const Edit &B) {
  if (A == B)
    return false;
  if (A.Offset == B.Offset)
    return true;
  unsigned AEnd = A.Offset + A.Length, BEnd = B.Offset + B.Length;
  return A.Offset < BEnd && B.Offset < AEnd;
}

} // namespace

FixReport applyFixes(const std::vector<FixRequest> &Requests,
                     const ApplyOptions &Options) {
  FixReport Report;
  Report.Outcomes.assign(Requests.size(), FixOutcome::NoFix);
  std::map<std::string, std::vector<Edit>> Accepted;
  std::map<std::string, std::vector<size_t>> RequestsOfFile;

  for (size_t I = 0; I < Requests.size(); ++I) {
    const FixRequest &Req = Requests[I];
    if (Req.Replacements.empty())
      continue;
    Report.TotalFixes += Req.Replacements.size();
    std::vector<std::pair<std::string, Edit>> New;
    bool Conflict = false;
    for (const Replacement &R : Req.Replacements) {
      Edit E{R.getOffset(), R.getLength(), R.getReplacementText().str()};
      const std::vector<Edit> &Taken = Accepted[R.getFilePath().str()];
      for (const Edit &T : Taken)
        Conflict |= conflicts(E, T);
      for (const auto &N : New)
        if (N.first == R.getFilePath())
          Conflict |= conflicts(E, N.second);
      New.push_back({R.getFilePath().str(), std::move(E)});
    }
    if (Conflict) {
      Report.Outcomes[I] = FixOutcome::Conflict;
      Report.Warnings.push_back(Req.Description +
                                ": its fix conflicts with another fix and "
                                "was not applied");
      continue;
    }
    Report.Outcomes[I] = FixOutcome::Applied;
    for (auto &N : New) {
      std::vector<Edit> &Taken = Accepted[N.first];
      if (std::find(Taken.begin(), Taken.end(), N.second) == Taken.end())
        Taken.push_back(std::move(N.second));
      std::vector<size_t> &Of = RequestsOfFile[N.first];
      if (Of.empty() || Of.back() != I)
        Of.push_back(I);
    }
  }

  for (auto &[Path, Edits] : Accepted) {
    if (Edits.empty())
      continue;
    auto Refuse = [&, &Path = Path](const std::string &Why, bool IsError) {
      (IsError ? Report.Errors : Report.Warnings).push_back(Why);
      for (size_t I : RequestsOfFile[Path])
        Report.Outcomes[I] = FixOutcome::FileRefused;
    };
    auto Expected = Options.ExpectedHashes.find(Path);
    if (Expected != Options.ExpectedHashes.end() && Options.CurrentHash &&
        Options.CurrentHash(Path) != Expected->second) {
      Refuse("'" + Path + "' changed since it was analysed; its fixes were "
             "not applied",
             true);
      continue;
    }
    llvm::sys::fs::file_status Status;
    if (llvm::sys::fs::status(Path, Status) ||
        !(Status.permissions() & (llvm::sys::fs::owner_write |
                                  llvm::sys::fs::group_write |
                                  llvm::sys::fs::others_write))) {
      Refuse("'" + Path + "' is not writable; its fixes were not applied",
             true);
      continue;
    }
    auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
    if (!Buffer) {
      Refuse("cannot read '" + Path + "': " + Buffer.getError().message(), true);
      continue;
    }
    llvm::StringRef Code = (*Buffer)->getBuffer();
    clang::tooling::Replacements Repls;
    bool Bad = false;
    std::sort(Edits.begin(), Edits.end(), [](const Edit &A, const Edit &B) {
      return A.Offset < B.Offset;
    });
    for (const Edit &E : Edits) {
      if (E.Offset + E.Length > Code.size()) {
        Bad = true;
        break;
      }
      if (llvm::Error Err = Repls.add(Replacement(Path, E.Offset, E.Length, E.Text))) {
        llvm::consumeError(std::move(Err));
        Bad = true;
        break;
      }
    }
    if (Bad) {
      Refuse("'" + Path + "': fixes do not fit the file; not applied", true);
      continue;
    }
    std::string StyleName = Options.FormatStyle ? Options.FormatStyle(Path) : "none";
    llvm::Expected<clang::format::FormatStyle> Style =
        clang::format::getStyle(StyleName, Path, "none");
    if (!Style) {
      Report.Warnings.push_back("format style: " + llvm::toString(Style.takeError()));
      Style = clang::format::getNoStyle();
    }
    llvm::Expected<clang::tooling::Replacements> Cleaned =
        clang::format::cleanupAroundReplacements(Code, Repls, *Style);
    if (Cleaned) {
      Repls = std::move(*Cleaned);
      if (auto Formatted = clang::format::formatReplacements(Code, Repls, *Style))
        Repls = std::move(*Formatted);
      else
        llvm::consumeError(Formatted.takeError());
    } else {
      llvm::consumeError(Cleaned.takeError());
    }
    llvm::Expected<std::string> NewCode =
        clang::tooling::applyAllReplacements(Code, Repls);
    if (!NewCode) {
      Refuse("'" + Path + "': " + llvm::toString(NewCode.takeError()), true);
      continue;
    }
    if (!Options.Write)
      continue;
    std::string Error;
    if (!writeAtomically(Path, *NewCode, Error)) {
      Refuse(Error, true);
      continue;
    }
  }
  for (size_t I = 0; I < Requests.size(); ++I)
    if (Report.Outcomes[I] == FixOutcome::Applied)
      Report.AppliedFixes += Requests[I].Replacements.size();
  return Report;
}

} // namespace torch_tidy
