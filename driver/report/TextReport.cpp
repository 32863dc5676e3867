//===--- TextReport.cpp - diagnostics as clang-tidy prints them -----------===//

#include "driver/report/TextReport.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticFrontend.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/LangOptions.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;
using namespace clang::tidy;

namespace torch_tidy {
namespace {

class Printer {
public:
  explicit Printer(bool UseColor)
      : Files((FileSystemOptions())), DiagOpts(new DiagnosticOptions()),
        TextPrinter(new TextDiagnosticPrinter(llvm::outs(), &*DiagOpts)),
        Diags(new DiagnosticIDs(), &*DiagOpts, TextPrinter),
        SM(Diags, Files) {
    DiagOpts->ShowColors = UseColor;
    TextPrinter->BeginSourceFile(LangOpts, nullptr);
  }
  ~Printer() { TextPrinter->EndSourceFile(); }

  void report(const ClangTidyError &E, int FixState) {
    std::string Name = E.DiagnosticName;
    DiagnosticsEngine::Level Level = DiagnosticsEngine::Warning;
    if (E.DiagLevel == ClangTidyError::Error)
      Level = DiagnosticsEngine::Error;
    else if (E.DiagLevel == ClangTidyError::Remark)
      Level = DiagnosticsEngine::Remark;
    if (E.IsWarningAsError) {
      Name += ",-warnings-as-errors";
      Level = DiagnosticsEngine::Error;
    }
    for (const std::string &Alias : E.EnabledDiagnosticAliases)
      if (Alias != E.DiagnosticName)
        Name += "," + Alias;
    std::vector<std::pair<SourceLocation, bool>> FixNotes;
    {
      auto Diag = Diags.Report(location(E.Message.FilePath, E.Message.FileOffset),
                               Diags.getCustomDiagID(Level, "%0 [%1]"))
                  << E.Message.Message << Name;
      addRanges(Diag, E.Message);
      addFixIts(Diag, E.Message);
      if (FixState != 0)
        for (const auto &F : fixOf(E))
          for (const tooling::Replacement &R : F.getValue())
            FixNotes.push_back({location(R.getFilePath(), R.getOffset()),
                                FixState > 0});
    }
    for (const auto &N : FixNotes)
      Diags.Report(N.first, N.second ? diag::note_fixit_applied
                                     : diag::note_fixit_failed);
    for (const tooling::DiagnosticMessage &Note : E.Notes) {
      auto Diag = Diags.Report(location(Note.FilePath, Note.FileOffset),
                               Diags.getCustomDiagID(DiagnosticsEngine::Note, "%0"))
                  << Note.Message;
      addRanges(Diag, Note);
      addFixIts(Diag, Note);
    }
  }

  static const llvm::StringMap<tooling::Replacements> &fixOf(const ClangTidyError &E) {
    if (!E.Message.Fix.empty())
      return E.Message.Fix;
    for (const tooling::DiagnosticMessage &N : E.Notes)
      if (!N.Fix.empty())
        return N.Fix;
    return E.Message.Fix;
  }

private:
  SourceLocation location(llvm::StringRef Path, unsigned Offset) {
    if (Path.empty())
      return SourceLocation();
    auto File = SM.getFileManager().getOptionalFileRef(Path);
    if (!File)
      return SourceLocation();
    FileID ID = SM.getOrCreateFileID(*File, SrcMgr::C_User);
    if (Offset > SM.getFileIDSize(ID))
      return SourceLocation();
    return SM.getLocForStartOfFile(ID).getLocWithOffset(Offset);
  }

  void addRanges(DiagnosticBuilder &Diag, const tooling::DiagnosticMessage &M) {
    for (const tooling::FileByteRange &R : M.Ranges) {
      SourceLocation B = location(R.FilePath, R.FileOffset);
      if (B.isValid())
        Diag << CharSourceRange::getCharRange(B, B.getLocWithOffset(R.Length));
    }
  }

  void addFixIts(DiagnosticBuilder &Diag, const tooling::DiagnosticMessage &M) {
    for (const auto &F : M.Fix)
      for (const tooling::Replacement &R : F.getValue()) {
        SourceLocation B = location(R.getFilePath(), R.getOffset());
        if (B.isValid())
          Diag << FixItHint::CreateReplacement(
              CharSourceRange::getCharRange(B, B.getLocWithOffset(R.getLength())),
              R.getReplacementText());
      }
  }

  FileManager Files;
  LangOptions LangOpts;
  IntrusiveRefCntPtr<DiagnosticOptions> DiagOpts;
  TextDiagnosticPrinter *TextPrinter;
  DiagnosticsEngine Diags;
  SourceManager SM;
};

} // namespace

void printText(const std::vector<Finding> &Findings,
               const std::vector<int> &FixState, bool UseColor) {
  if (Findings.empty())
    return;
  Printer P(UseColor);
  for (size_t I = 0; I < Findings.size(); ++I)
    P.report(Findings[I].Error, I < FixState.size() ? FixState[I] : 0);
  llvm::outs().flush();
}

void printSuppressionStats(const ClangTidyStats &Stats) {
  if (!Stats.errorsIgnored())
    return;
  llvm::raw_ostream &OS = llvm::errs();
  OS << "Suppressed " << Stats.errorsIgnored() << " warnings (";
  llvm::StringRef Sep = "";
  auto Part = [&](unsigned N, llvm::StringRef What) {
    if (!N)
      return;
    OS << Sep << N << " " << What;
    Sep = ", ";
  };
  Part(Stats.ErrorsIgnoredNonUserCode, "in non-user code");
  Part(Stats.ErrorsIgnoredLineFilter, "due to line filter");
  Part(Stats.ErrorsIgnoredNOLINT, "NOLINT");
  Part(Stats.ErrorsIgnoredCheckFilter, "with check filters");
  OS << ").\n";
  if (Stats.ErrorsIgnoredNonUserCode)
    OS << "Use -header-filter=.* to display errors from all non-system "
          "headers. Use -system-headers to display errors from system "
          "headers as well.\n";
}

} // namespace torch_tidy
