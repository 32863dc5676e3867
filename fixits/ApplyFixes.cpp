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

/// The edits taken so far, per file, and the requests they came from.
struct Taken {
  std::map<std::string, std::vector<Edit>> Edits;
  std::map<std::string, std::vector<size_t>> RequestsOfFile;

  /// Takes the edits of request \p I, unless one conflicts with an edit
  /// taken already or another of its own: a fix is taken whole or not at all.
  bool take(size_t I, const FixRequest &Req) {
    std::vector<std::pair<std::string, Edit>> New;
    bool Conflict = false;
    for (const Replacement &R : Req.Replacements) {
      Edit E{R.getOffset(), R.getLength(), R.getReplacementText().str()};
      for (const Edit &T : Edits[R.getFilePath().str()])
        Conflict |= conflicts(E, T);
      for (const auto &N : New)
        if (N.first == R.getFilePath())
          Conflict |= conflicts(E, N.second);
      New.push_back({R.getFilePath().str(), std::move(E)});
    }
    if (Conflict)
      return false;
    for (auto &N : New) {
      std::vector<Edit> &Of = Edits[N.first];
      if (std::find(Of.begin(), Of.end(), N.second) == Of.end())
        Of.push_back(std::move(N.second));
      std::vector<size_t> &Requests = RequestsOfFile[N.first];
      if (Requests.empty() || Requests.back() != I)
        Requests.push_back(I);
    }
    return true;
  }
};

/// Why \p Path must not be changed (it changed since it was analysed, it is
/// read-only), or "".
std::string refusal(const std::string &Path, const ApplyOptions &Options) {
  auto Expected = Options.ExpectedHashes.find(Path);
  if (Expected != Options.ExpectedHashes.end() && Options.CurrentHash &&
      Options.CurrentHash(Path) != Expected->second)
    return "'" + Path + "' changed since it was analysed; its fixes were not applied";
  llvm::sys::fs::file_status Status;
  if (llvm::sys::fs::status(Path, Status) ||
      !(Status.permissions() & (llvm::sys::fs::owner_write | llvm::sys::fs::group_write |
                                llvm::sys::fs::others_write)))
    return "'" + Path + "' is not writable; its fixes were not applied";
  return "";
}

/// \p Edits as replacements of \p Code, cleaned up and formatted in the
/// file's style; false with \p Error set when they do not fit the file.
bool replacementsFor(const std::string &Path, llvm::StringRef Code, std::vector<Edit> &Edits,
                     const ApplyOptions &Options, clang::tooling::Replacements &Repls,
                     FixReport &Report, std::string &Error) {
  std::sort(Edits.begin(), Edits.end(),
            [](const Edit &A, const Edit &B) { return A.Offset < B.Offset; });
  for (const Edit &E : Edits) {
    bool Fits = E.Offset + E.Length <= Code.size();
    if (Fits)
      if (llvm::Error Err = Repls.add(Replacement(Path, E.Offset, E.Length, E.Text))) {
        llvm::consumeError(std::move(Err));
        Fits = false;
      }
    if (!Fits) {
      Error = "'" + Path + "': fixes do not fit the file; not applied";
      return false;
    }
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
  if (!Cleaned) {
    llvm::consumeError(Cleaned.takeError());
    return true;
  }
  Repls = std::move(*Cleaned);
  if (auto Formatted = clang::format::formatReplacements(Code, Repls, *Style))
    Repls = std::move(*Formatted);
  else
    llvm::consumeError(Formatted.takeError());
  return true;
}

/// Applies \p Edits to \p Path (writes it when Options.Write); false with
/// \p Error set when the file is refused.
bool fixFile(const std::string &Path, std::vector<Edit> &Edits, const ApplyOptions &Options,
             FixReport &Report, std::string &Error) {
  Error = refusal(Path, Options);
  if (!Error.empty())
    return false;
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!Buffer) {
    Error = "cannot read '" + Path + "': " + Buffer.getError().message();
    return false;
  }
  llvm::StringRef Code = (*Buffer)->getBuffer();
  clang::tooling::Replacements Repls;
  if (!replacementsFor(Path, Code, Edits, Options, Repls, Report, Error))
    return false;
  llvm::Expected<std::string> NewCode = clang::tooling::applyAllReplacements(Code, Repls);
  if (!NewCode) {
    Error = "'" + Path + "': " + llvm::toString(NewCode.takeError());
    return false;
  }
  return !Options.Write || writeAtomically(Path, *NewCode, Error);
}

} // namespace

FixReport applyFixes(const std::vector<FixRequest> &Requests,
                     const ApplyOptions &Options) {
  FixReport Report;
  Report.Outcomes.assign(Requests.size(), FixOutcome::NoFix);
  Taken T;
  for (size_t I = 0; I < Requests.size(); ++I) {
    const FixRequest &Req = Requests[I];
    if (Req.Replacements.empty())
      continue;
    Report.TotalFixes += Req.Replacements.size();
    if (T.take(I, Req)) {
      Report.Outcomes[I] = FixOutcome::Applied;
      continue;
    }
    Report.Outcomes[I] = FixOutcome::Conflict;
    Report.Warnings.push_back(Req.Description +
                              ": its fix conflicts with another fix and was not applied");
  }
  for (auto &[Path, Edits] : T.Edits) {
    std::string Error;
    if (Edits.empty() || fixFile(Path, Edits, Options, Report, Error))
      continue;
    Report.Errors.push_back(Error);
    for (size_t I : T.RequestsOfFile[Path])
      Report.Outcomes[I] = FixOutcome::FileRefused;
  }
  for (size_t I = 0; I < Requests.size(); ++I)
    if (Report.Outcomes[I] == FixOutcome::Applied)
      Report.AppliedFixes += Requests[I].Replacements.size();
  return Report;
}

} // namespace torch_tidy
