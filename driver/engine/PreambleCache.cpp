//===--- PreambleCache.cpp - precompiled preambles kept between runs ------===//

#include "driver/engine/PreambleCache.h"

#include "driver/engine/AbsenceRecorder.h"
#include "driver/engine/Dependencies.h"
#include "driver/engine/Engine.h"
#include "driver/engine/ResultCache.h"
#include "base/AtomicWrite.h"
#include "base/Hashing.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/PrecompiledPreamble.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <sys/time.h>

using namespace clang;
namespace json = llvm::json;

namespace torch_tidy {
namespace {

std::string entryKey(const CompilerInvocation &Invocation,
                     llvm::StringRef ToolIdentity, bool SkipSystemBodies) {
  CacheKey K("torch-tidy preamble 1");
  K.add(ToolIdentity);
  K.add(SkipSystemBodies ? "bodies=skipped" : "bodies=parsed");
  for (const FrontendInputFile &In : Invocation.getFrontendOpts().Inputs)
    K.add(In.getFile());
  for (const std::string &Arg : Invocation.getCC1CommandLine())
    K.add(Arg);
  return K.hex();
}

/// Counts the preamble's errors (warnings are the same with or without the
/// preamble: torch-tidy uses one only when no compiler warning is reported).
class ErrorCounter : public DiagnosticConsumer {};

/// Records what the preamble read, and skips the bodies of functions in
/// system headers as the analysis of a whole unit does.
class Recorder : public PreambleCallbacks {
public:
  Recorder(bool SkipSystemBodies, Preamble &P)
      : SkipSystemBodies(SkipSystemBodies), P(P) {}

  void BeforeExecute(CompilerInstance &CI) override { SM = &CI.getSourceManager(); }

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
  SourceManager *SM = nullptr;
};

json::Object toJSON(const std::map<std::string, std::string> &M) {
  json::Object O;
  for (const auto &[K, V] : M)
    O[K] = V;
  return O;
}

bool writeJSON(llvm::StringRef Path, json::Object O) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  OS << json::Value(std::move(O));
  OS.flush();
  std::string Error;
  return writeAtomically(Path, Text, Error);
}

/// Gives the PCH that \p Built keeps in a temporary file the new name
/// \p Final (a hard link, or a copy renamed into place), so that it is
/// complete whenever it can be seen.
bool keepPCH(const PrecompiledPreamble &Built, const CompilerInvocation &Invocation,
             llvm::MemoryBuffer &MainBuffer, llvm::StringRef Final) {
  // The temporary file's name is only told through the options it sets.
  CompilerInvocation Scratch(Invocation);
  IntrusiveRefCntPtr<llvm::vfs::FileSystem> VFS = llvm::vfs::getRealFileSystem();
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

/// Removes a PCH that a newer build replaced, unless a run used it in the
/// last minute (a run marks it just before reading it).
void removeReplaced(llvm::StringRef Path) {
  llvm::sys::fs::file_status S;
  if (llvm::sys::fs::status(Path, S))
    return;
  if (std::chrono::system_clock::now() - S.getLastModificationTime() >
      std::chrono::minutes(1))
    llvm::sys::fs::remove(Path);
}

/// What an entry's manifest says of the preamble now.
enum class Entry { Missing, Hit, Unusable };

/// Reads the manifest of an entry into \p P. A hit when everything it was
/// made from is unchanged; otherwise \p Replaced names the PCH of the stale
/// entry.
Entry readManifest(llvm::StringRef Dir, llvm::StringRef Manifest,
                   llvm::StringRef PreambleHash, Preamble &P, std::string &Replaced) {
  auto Text = llvm::MemoryBuffer::getFile(Manifest, /*IsText=*/true);
  if (!Text)
    return Entry::Missing;
  llvm::Expected<json::Value> V = json::parse((*Text)->getBuffer());
  const json::Object *O = V ? V->getAsObject() : nullptr;
  if (!V)
    llvm::consumeError(V.takeError());
  std::optional<llvm::StringRef> PCHName = O ? O->getString("pch") : std::nullopt;
  if (PCHName && !PCHName->empty() && !PCHName->contains('/')) {
    llvm::SmallString<256> Path(Dir);
    llvm::sys::path::append(Path, *PCHName);
    Replaced = P.PCHPath = std::string(Path);
  }
  if (!O || O->getString("preamble") != PreambleHash ||
      O->getBoolean("ends_at_start_of_line") != P.EndsAtStartOfLine ||
      !O->getBoolean("usable") || !dependenciesUnchanged(*O))
    return Entry::Missing;
  if (!*O->getBoolean("usable"))
    return Entry::Unusable;
  const json::Object *User = O->getObject("user");
  if (!User)
    return Entry::Missing;
  P.Files = recordedFiles(*O, P.Absent);
  for (const auto &[Name, Hash] : *User)
    if (auto H = Hash.getAsString())
      P.UserFiles[Name.str()] = H->str();
  if (P.PCHPath.empty() || !llvm::sys::fs::exists(P.PCHPath))
    return Entry::Missing;
  // Used: the least recently used entries go first when trimming, and a
  // PCH in use is not removed.
  ::utimes(Manifest.str().c_str(), nullptr);
  ::utimes(P.PCHPath.c_str(), nullptr);
  return Entry::Hit;
}

/// What building a preamble needs.
struct BuildRequest {
  const CompilerInvocation &Invocation;
  FileManager &Files;
  llvm::MemoryBuffer &MainBuffer;
  PreambleBounds Bounds;
  std::shared_ptr<PCHContainerOperations> PCHContainerOps;
  bool SkipSystemBodies;
  AbsenceRecorder &Absences;
};

/// Precompiles the preamble into \p Dir as \p Key-<unique>.pch, and
/// records into \p P what it read. False when it could not be built at all;
/// \p Usable is false when it has compiler errors.
bool buildPCH(const BuildRequest &R, llvm::StringRef Dir, llvm::StringRef Key,
              Preamble &P, bool &Usable) {
  CompilerInvocation Build(R.Invocation);
  Build.getFrontendOpts().SkipFunctionBodies = R.SkipSystemBodies;
  ErrorCounter Counter;
  IntrusiveRefCntPtr<DiagnosticOptions> DiagOpts(
      new DiagnosticOptions(R.Invocation.getDiagnosticOpts()));
  // Held by reference count: the preamble's compiler instance shares it.
  IntrusiveRefCntPtr<DiagnosticsEngine> Diags(new DiagnosticsEngine(
      new DiagnosticIDs(), DiagOpts, &Counter, /*ShouldOwnClient=*/false));
  Recorder Callbacks(R.SkipSystemBodies, P);
  size_t AbsentBefore = R.Absences.paths().size();
  llvm::ErrorOr<PrecompiledPreamble> Built = PrecompiledPreamble::Build(
      Build, &R.MainBuffer, R.Bounds, *Diags, R.Files.getVirtualFileSystemPtr(),
      R.PCHContainerOps, /*StoreInMemory=*/false, Dir, Callbacks);
  P.Absent.assign(R.Absences.paths().begin() + AbsentBefore, R.Absences.paths().end());
  Usable = Built && Counter.getNumErrors() == 0 && !Diags->hasErrorOccurred();
  if (!Built && Counter.getNumErrors() == 0)
    return false;
  if (!Usable)
    return true;
  // A new name for every build: a run still reading the PCH it validated
  // never sees it replaced.
  llvm::SmallString<256> PCH;
  llvm::sys::fs::createUniquePath(Dir + "/" + Key + "-%%%%%%%%.pch", PCH,
                                  /*MakeAbsolute=*/false);
  P.PCHPath = std::string(PCH);
  return keepPCH(*Built, R.Invocation, R.MainBuffer, PCH);
}

} // namespace

PreambleCache::PreambleCache(std::string Dir, uint64_t MaxBytes)
    : Dir(std::move(Dir)), MaxBytes(MaxBytes) {}

std::optional<Preamble>
PreambleCache::get(const CompilerInvocation &Invocation, FileManager &Files,
                   std::shared_ptr<PCHContainerOperations> PCHContainerOps,
                   llvm::StringRef ToolIdentity, bool SkipSystemBodies,
                   bool MayBuild, AbsenceRecorder &Absences, std::string &What) {
  What = "none";
  const FrontendOptions &FO = Invocation.getFrontendOpts();
  // A unit that reads a PCH of its own, or modules, is parsed as it is.
  if (FO.Inputs.size() != 1 || !FO.Inputs[0].isFile() ||
      !Invocation.getPreprocessorOpts().ImplicitPCHInclude.empty() ||
      Invocation.getLangOpts().Modules)
    return std::nullopt;
  auto MainBuffer = Files.getBufferForFile(FO.Inputs[0].getFile(),
                                           /*isVolatile=*/true);
  if (!MainBuffer)
    return std::nullopt;
  PreambleBounds Bounds =
      ComputePreambleBounds(Invocation.getLangOpts(), **MainBuffer, 0);
  if (Bounds.Size == 0)
    return std::nullopt;
  std::string PreambleHash =
      contentHash((*MainBuffer)->getBuffer().take_front(Bounds.Size));

  std::string Key = entryKey(Invocation, ToolIdentity, SkipSystemBodies);
  llvm::SmallString<256> Manifest(Dir);
  llvm::sys::path::append(Manifest, Key + ".json");
  std::string Replaced; // the PCH of a stale entry
  Preamble P;
  P.Size = Bounds.Size;
  P.EndsAtStartOfLine = Bounds.PreambleEndsAtStartOfLine;
  switch (readManifest(Dir, Manifest, PreambleHash, P, Replaced)) {
  case Entry::Hit:
    What = "hit";
    return P;
  case Entry::Unusable:
    What = "unusable";
    return std::nullopt;
  case Entry::Missing:
    break;
  }

  P = Preamble{"", P.Size, P.EndsAtStartOfLine, {}, {}, {}};
  if (!MayBuild) {
    What = "not built";
    return std::nullopt;
  }
  bool Usable = false;
  if (llvm::sys::fs::create_directories(Dir) ||
      !buildPCH({Invocation, Files, **MainBuffer, Bounds, std::move(PCHContainerOps),
                 SkipSystemBodies, Absences},
                Dir, Key, P, Usable)) {
    What = "failed";
    return std::nullopt;
  }
  json::Object O = recordDependencies(P.Files, P.Absent);
  O["preamble"] = PreambleHash;
  O["ends_at_start_of_line"] = P.EndsAtStartOfLine;
  O["usable"] = Usable;
  O["user"] = toJSON(P.UserFiles);
  O["pch"] = Usable ? llvm::sys::path::filename(P.PCHPath).str() : "";
  if (writeJSON(Manifest, std::move(O)) && !Replaced.empty() && Replaced != P.PCHPath)
    removeReplaced(Replaced);
  trimCacheDirectory(Dir, MaxBytes);
  What = Usable ? "built" : "unusable";
  return Usable ? std::optional<Preamble>(P) : std::nullopt;
}

void PreambleCache::use(const Preamble &P, CompilerInvocation &Invocation) {
  PreprocessorOptions &PO = Invocation.getPreprocessorOpts();
  PO.ImplicitPCHInclude = P.PCHPath;
  PO.PrecompiledPreambleBytes = {P.Size, P.EndsAtStartOfLine};
  // Every file the preamble read was checked by content above.
  PO.DisablePCHOrModuleValidation = DisableValidationForModuleKind::PCH;
  // The predefines are the preamble's.
  PO.UsePredefines = false;
}

} // namespace torch_tidy
