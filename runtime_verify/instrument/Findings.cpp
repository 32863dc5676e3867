//===--- Findings.cpp - the growth findings torch-tidy exported -----------===//
#include "runtime_verify/instrument/Findings.h"

#include "clang/Tooling/DiagnosticsYaml.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>

namespace torch_tidy {
namespace verify {

VerifyProbe probeFor(llvm::StringRef Check) {
  const CheckRow *Row = findCheck(Check);
  return Row ? Row->Verify : VerifyProbe::None;
}

static std::string verifiableChecks(llvm::StringRef Separator) {
  std::string List;
  for (const CheckRow &Row : checkTable())
    if (Row.Verify != VerifyProbe::None)
      List += (List.empty() ? "" : Separator.str()) + Row.Name;
  return List;
}

std::string verifiableChecksFilter() { return "-*," + verifiableChecks(","); }

std::string verifiableChecksList() { return verifiableChecks(", "); }

unsigned lineOfOffset(llvm::StringRef Code, unsigned Offset) {
  return 1 + static_cast<unsigned>(Code.take_front(Offset).count('\n'));
}

bool sameFile(llvm::StringRef A, llvm::StringRef B) {
  if (A == B)
    return true;
  llvm::sys::fs::UniqueID IA, IB;
  return !llvm::sys::fs::getUniqueID(A, IA) && !llvm::sys::fs::getUniqueID(B, IB) && IA == IB;
}

llvm::Expected<std::vector<Finding>> readFindings(const std::string &YamlPath,
                                                  const std::string &File,
                                                  llvm::StringRef Code) {
  std::vector<Finding> Findings;
  if (!llvm::sys::fs::exists(YamlPath))
    return Findings; // torch-tidy writes no file when it finds nothing
  auto Buffer = llvm::MemoryBuffer::getFile(YamlPath);
  if (!Buffer)
    return llvm::createStringError(Buffer.getError(), "cannot read " + YamlPath);
  clang::tooling::TranslationUnitDiagnostics TUD;
  llvm::yaml::Input YIn((*Buffer)->getBuffer());
  YIn >> TUD;
  if (YIn.error())
    return llvm::createStringError(YIn.error(), "cannot parse the findings in " + YamlPath);
  for (const clang::tooling::Diagnostic &D : TUD.Diagnostics) {
    VerifyProbe Probe = probeFor(D.DiagnosticName);
    if (Probe == VerifyProbe::None || !sameFile(D.Message.FilePath, File))
      continue;
    Finding F;
    F.Check = D.DiagnosticName;
    F.Probe = Probe;
    F.Message = D.Message.Message;
    F.Offset = D.Message.FileOffset;
    F.Line = lineOfOffset(Code, F.Offset);
    if (!D.Notes.empty()) {
      F.NoteFile = D.Notes.front().FilePath;
      F.NoteOffset = D.Notes.front().FileOffset;
    }
    for (const auto &Entry : D.Message.Fix)
      if (sameFile(Entry.first(), File))
        for (const clang::tooling::Replacement &R : Entry.second)
          if (llvm::Error E = F.Fix.add(clang::tooling::Replacement(
                  File, R.getOffset(), R.getLength(), R.getReplacementText())))
            return std::move(E);
    Findings.push_back(std::move(F));
  }
  std::stable_sort(Findings.begin(), Findings.end(),
                   [](const Finding &A, const Finding &B) { return A.Offset < B.Offset; });
  return Findings;
}

} // namespace verify
} // namespace torch_tidy
