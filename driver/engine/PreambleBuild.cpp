//===--- PreambleBuild.cpp - precompiling one preamble --------------------===//

#include "driver/engine/PreambleBuild.h"

#include "driver/engine/AbsenceRecorder.h"
#include "driver/engine/Engine.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/PrecompiledPreamble.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace clang;

namespace torch_tidy {
namespace {

/// Counts the preamble's errors (warnings are the same with or without the
/// preamble: torch-tidy uses one only when no compiler warning is reported).
class ErrorCounter : public DiagnosticConsumer {};

/// Watches the builtin macros whose value depends on the main file's name
/// or on where its directives are.
class MainFileUses : public PPCallbacks {
public:
  MainFileUses(const SourceManager &SM, BuildOutcome &Out) : SM(SM), Out(Out) {}

  void MacroExpands(const Token &Name, const MacroDefinition &MD, SourceRange,
                    const MacroArgs *) override {
    const MacroInfo *MI = MD.getMacroInfo();
    if (!MI || !MI->isBuiltinMacro() || !Name.getIdentifierInfo())
      return;
    llvm::StringRef N = Name.getIdentifierInfo()->getName();
    bool InMain = SM.getFileID(SM.getExpansionLoc(Name.getLocation())) ==
                  SM.getMainFileID();
    if (N == "__BASE_FILE__" ||
        (InMain &&
         (N == "__FILE__" || N == "__FILE_NAME__" || N == "__TIMESTAMP__")))
      Out.NamesMainFile = true;
    else if (InMain && N == "__LINE__")
      Out.UsesPositions = true;
  }

private:
  const SourceManager &SM;
  BuildOutcome &Out;
};

/// Records what the preamble read and what it depends on, and skips the
/// bodies of functions in system headers as the analysis of a whole unit
/// does.
class Recorder : public PreambleCallbacks {
public:
  Recorder(bool SkipSystemBodies, Preamble &P, BuildOutcome &Out)
      : SkipSystemBodies(SkipSystemBodies), P(P), Out(Out) {}

  void BeforeExecute(CompilerInstance &CI) override {
    SM = &CI.getSourceManager();
  }

  std::unique_ptr<PPCallbacks> createPPCallbacks() override {
    return std::make_unique<MainFileUses>(*SM, Out);
  }

  bool shouldSkipFunctionBody(Decl *D) override {
    return SkipSystemBodies &&
           SM->isInSystemHeader(SM->getExpansionLoc(D->getLocation()));
  }

  void AfterExecute(CompilerInstance &CI) override {
    // The main file is the preamble's text, checked apart.
    recordFilesEntered(CI.getSourceManager(), /*WithMainFile=*/false, P.Files,
                       P.UserFiles);
  }

private:
  bool SkipSystemBodies;
  Preamble &P;
  BuildOutcome &Out;
  SourceManager *SM = nullptr;
};

/// Gives the PCH that \p Built keeps in a temporary file the new name
/// \p Final (a hard link, or a copy renamed into place), so that it is
/// complete whenever it can be seen.
bool keepPCH(const PrecompiledPreamble &Built,
             const CompilerInvocation &Invocation,
             llvm::MemoryBuffer &MainBuffer, llvm::StringRef Final) {
  // The temporary file's name is only told through the options it sets.
  CompilerInvocation Scratch(Invocation);
  IntrusiveRefCntPtr<llvm::vfs::FileSystem> VFS =
      llvm::vfs::getRealFileSystem();
  Built.AddImplicitPreamble(Scratch, VFS, &MainBuffer);
  std::string Temp = Scratch.getPreprocessorOpts().ImplicitPCHInclude;
  Scratch.getPreprocessorOpts().RemappedFileBuffers.clear();
  if (Temp.empty())
    return false;
  if (!llvm::sys::fs::create_hard_link(Temp, Final))
    return true;
  llvm::SmallString<256> Staging;
  llvm::sys::fs::createUniquePath(Final + ".%%%%%%%%.tmp", Staging,
                                  /*MakeAbsolute=*/false);
  if (llvm::sys::fs::copy_file(Temp, Staging))
    return false;
  if (llvm::sys::fs::rename(Staging, Final)) {
    llvm::sys::fs::remove(Staging);
    return false;
  }
  return true;
}

} // namespace

bool buildPreamble(const BuildRequest &R, llvm::StringRef MainPath,
                   llvm::StringRef Dir, llvm::StringRef Key, Preamble &P,
                   BuildOutcome &Out) {
  CompilerInvocation Build(R.Invocation);
  Build.getFrontendOpts().SkipFunctionBodies = R.SkipSystemBodies;
  FrontendInputFile &Input = Build.getFrontendOpts().Inputs[0];
  Input = FrontendInputFile(MainPath, Input.getKind(), Input.isSystem());
  ErrorCounter Counter;
  IntrusiveRefCntPtr<DiagnosticOptions> DiagOpts(
      new DiagnosticOptions(R.Invocation.getDiagnosticOpts()));
  // Held by reference count: the preamble's compiler instance shares it.
  IntrusiveRefCntPtr<DiagnosticsEngine> Diags(new DiagnosticsEngine(
      new DiagnosticIDs(), DiagOpts, &Counter, /*ShouldOwnClient=*/false));
  Recorder Callbacks(R.SkipSystemBodies, P, Out);
  size_t AbsentBefore = R.Absences.paths().size();
  llvm::ErrorOr<PrecompiledPreamble> Built = PrecompiledPreamble::Build(
      Build, &R.MainBuffer, R.Bounds, *Diags, R.Files.getVirtualFileSystemPtr(),
      R.PCHContainerOps, /*StoreInMemory=*/false, Dir, Callbacks);
  // The main file's own path is the preamble's text, whatever is there.
  for (size_t I = AbsentBefore; I < R.Absences.paths().size(); ++I)
    if (R.Absences.paths()[I] != MainPath)
      P.Absent.push_back(R.Absences.paths()[I]);
  Out.Usable =
      Built && Counter.getNumErrors() == 0 && !Diags->hasErrorOccurred();
  if (!Built && Counter.getNumErrors() == 0)
    return false;
  if (!Out.Usable)
    return true;
  // A new name for every build: a run still reading the PCH it validated
  // never sees it replaced.
  llvm::SmallString<256> PCH;
  llvm::sys::fs::createUniquePath(Dir + "/" + Key + "-%%%%%%%%.pch", PCH,
                                  /*MakeAbsolute=*/false);
  P.PCHPath = std::string(PCH);
  return keepPCH(*Built, Build, R.MainBuffer, PCH);
}

} // namespace torch_tidy
