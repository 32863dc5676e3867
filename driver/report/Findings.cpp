//===--- Findings.cpp - the diagnostics of a run, merged ------------------===//

#include "driver/report/Findings.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA1.h"
#include "llvm/ADT/StringExtras.h"
#include <algorithm>
#include <map>
#include <set>
#include <tuple>

using namespace clang;
using namespace clang::tidy;

namespace torch_tidy {
namespace {

void absolutise(tooling::DiagnosticMessage &M, llvm::StringRef BuildDir) {
  if (!M.FilePath.empty())
    M.FilePath = SourceFiles::absolute(M.FilePath, BuildDir);
  for (tooling::FileByteRange &R : M.Ranges)
    R.FilePath = SourceFiles::absolute(R.FilePath, BuildDir);
  llvm::StringMap<tooling::Replacements> Fix;
  for (const auto &E : M.Fix)
    for (const tooling::Replacement &R : E.getValue()) {
      std::string Path = SourceFiles::absolute(R.getFilePath(), BuildDir);
      llvm::consumeError(Fix[Path].add(tooling::Replacement(
          Path, R.getOffset(), R.getLength(), R.getReplacementText())));
    }
  M.Fix = std::move(Fix);
}

std::string normalise(llvm::StringRef Line) {
  std::string Out;
  bool Space = false;
  for (char C : Line.trim()) {
    if (C == ' ' || C == '\t' || C == '\r') {
      Space = true;
      continue;
    }
    if (Space && !Out.empty())
      Out += ' ';
    Space = false;
    Out += C;
  }
  return Out;
}

} // namespace

Severity severityOf(const Finding &F) {
  if (F.Error.IsWarningAsError || F.Error.DiagLevel == ClangTidyError::Error)
    return Severity::Error;
  return F.Error.DiagLevel == ClangTidyError::Remark ? Severity::Remark
                                                     : Severity::Warning;
}

const char *severityName(const Finding &F, const SeverityNames &Names) {
  switch (severityOf(F)) {
  case Severity::Error:
    return Names.Error;
  case Severity::Remark:
    return Names.Remark;
  case Severity::Warning:
    break;
  }
  return Names.Warning;
}

std::string repositoryRoot(llvm::StringRef Path) {
  llvm::SmallString<256> Dir(SourceFiles::absolute(Path));
  if (!llvm::sys::fs::is_directory(Dir))
    llvm::sys::path::remove_filename(Dir);
  for (llvm::StringRef D = Dir; !D.empty(); D = llvm::sys::path::parent_path(D)) {
    llvm::SmallString<256> Git(D);
    llvm::sys::path::append(Git, ".git");
    if (llvm::sys::fs::exists(Git))
      return D.str();
  }
  return SourceFiles::absolute(".");
}

std::string relativeTo(llvm::StringRef Path, llvm::StringRef Root) {
  llvm::StringRef P = Path;
  if (!Root.empty() && P.consume_front(Root) &&
      (P.empty() || llvm::sys::path::is_separator(P.front()) ||
       llvm::sys::path::is_separator(Root.back())))
    return llvm::sys::path::convert_to_slash(P.ltrim('/'));
  return llvm::sys::path::convert_to_slash(Path);
}

std::vector<Finding>
mergeFindings(const std::vector<TUResult> &Results,
              const std::map<std::string, std::set<std::string>> &OnlyFiles,
              SourceFiles &Sources, llvm::StringRef Root) {
  std::vector<Finding> Out;
  std::set<std::tuple<std::string, std::string, unsigned, std::string>> Seen;
  for (const TUResult &R : Results) {
    auto Only = OnlyFiles.find(R.MainFile);
    for (const ClangTidyError &E : R.Errors) {
      Finding F{E, "", ""};
      absolutise(F.Error.Message, E.BuildDirectory);
      for (tooling::DiagnosticMessage &N : F.Error.Notes)
        absolutise(N, E.BuildDirectory);
      if (Only != OnlyFiles.end() && !Only->second.count(F.Error.Message.FilePath))
        continue;
      if (!Seen.insert({F.Error.DiagnosticName, F.Error.Message.FilePath,
                        F.Error.Message.FileOffset, F.Error.Message.Message})
               .second)
        continue;
      F.RelativePath = relativeTo(F.Error.Message.FilePath, Root);
      Out.push_back(std::move(F));
    }
  }
  // In the order of the absolute paths: the compiler names a header as it
  // was found (relative to the build directory, or absolute when read from
  // a precompiled preamble), which must not change the order.
  // Duplicates are gone, so the order is total.
  std::sort(Out.begin(), Out.end(), [](const Finding &A, const Finding &B) {
    const tooling::DiagnosticMessage &MA = A.Error.Message, &MB = B.Error.Message;
    return std::tie(MA.FilePath, MA.FileOffset, A.Error.DiagnosticName, MA.Message) <
           std::tie(MB.FilePath, MB.FileOffset, B.Error.DiagnosticName, MB.Message);
  });
  return Out;
}

void computeFingerprints(std::vector<Finding> &Findings, SourceFiles &Sources) {
  std::map<std::string, unsigned> Occurrences;
  for (Finding &F : Findings) {
    const tooling::DiagnosticMessage &M = F.Error.Message;
    unsigned Line = Sources.position(M.FilePath, M.FileOffset).Line;
    std::string Key = F.Error.DiagnosticName + "\n" + F.RelativePath + "\n";
    if (Line) {
      // The line and its nearest non-blank neighbours.
      auto Neighbour = [&](int Step) {
        for (int L = static_cast<int>(Line) + Step, N = 0; L > 0 && N < 50;
             L += Step, ++N) {
          std::string T = normalise(Sources.line(M.FilePath, L));
          if (!T.empty())
            return T;
        }
        return std::string();
      };
      Key += Neighbour(-1) + "\n" + normalise(Sources.line(M.FilePath, Line)) +
             "\n" + Neighbour(+1) + "\n";
    } else {
      Key += M.Message + "\n";
    }
    unsigned Index = Occurrences[Key]++;
    Key += std::to_string(Index);
    llvm::SHA1 Hash;
    Hash.update(Key);
    F.Fingerprint = llvm::toHex(Hash.final(), /*LowerCase=*/true).substr(0, 32);
  }
}

} // namespace torch_tidy
