//===--- PreambleCache.cpp - precompiled preambles kept between runs ------===//

#include "driver/engine/PreambleCache.h"

#include "base/AtomicWrite.h"
#include "base/Hashing.h"
#include "driver/engine/AbsenceRecorder.h"
#include "driver/engine/Dependencies.h"
#include "driver/engine/PreambleBuild.h"
#include "driver/engine/PreambleExtent.h"
#include "driver/engine/ResultCache.h"
#include "clang/Basic/FileManager.h"
#include "clang/Frontend/PrecompiledPreamble.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <sys/time.h>

using namespace clang;
namespace json = llvm::json;

namespace torch_tidy {
namespace {

/// A unit's preamble, and what decides which PCH it may read.
struct UnitPreamble {
  /// The main file as the compiler names it, and its directory (absolute).
  std::string MainPath, MainDir, WorkingDir;
  std::unique_ptr<llvm::MemoryBuffer> Buffer;
  PreambleBounds Bounds{0, false};
  llvm::StringRef Text;
  PreambleShape Shape;
  std::vector<std::string> Flags;
};

/// None when \p Invocation's main file has no preamble, or reads a PCH or
/// modules of its own (it is parsed as it is).
std::optional<UnitPreamble> unitPreamble(const CompilerInvocation &Invocation,
                                         FileManager &Files) {
  const FrontendOptions &FO = Invocation.getFrontendOpts();
  if (FO.Inputs.size() != 1 || !FO.Inputs[0].isFile() ||
      !Invocation.getPreprocessorOpts().ImplicitPCHInclude.empty() ||
      Invocation.getLangOpts().Modules)
    return std::nullopt;
  UnitPreamble U;
  U.MainPath = FO.Inputs[0].getFile().str();
  auto Buffer = Files.getBufferForFile(U.MainPath, /*isVolatile=*/true);
  if (!Buffer)
    return std::nullopt;
  U.Buffer = std::move(*Buffer);
  llvm::vfs::FileSystem &FS = Files.getVirtualFileSystem();
  llvm::SmallString<256> MainDir(llvm::sys::path::parent_path(U.MainPath));
  FS.makeAbsolute(MainDir);
  U.MainDir = std::string(MainDir);
  U.WorkingDir = FS.getCurrentWorkingDirectory().get();
  U.Bounds = preambleBounds(
      Invocation.getLangOpts(), *U.Buffer,
      LibraryHeaderLookup(Invocation.getHeaderSearchOpts(), U.MainDir,
                          U.WorkingDir, FS));
  if (U.Bounds.Size == 0)
    return std::nullopt;
  U.Text = U.Buffer->getBuffer().take_front(U.Bounds.Size);
  U.Shape = shapeOf(U.Text, Invocation.getLangOpts());
  U.Flags = preambleFlags(Invocation);
  return U;
}

/// One place a preamble may be kept.
struct EntryPlan {
  std::string Key;
  /// The name the PCH knows its main file by.
  std::string MainPath;
  /// An entry for units of any directory: the directory that stands for a
  /// unit's own in the paths the preamble looked up in vain.
  std::string NeutralDir;
  /// For units that share it (else the unit's file alone), for units with
  /// the same text of their preamble (else the same directives).
  bool Shared = false, ExactText = false;
};

/// The entries a unit's preamble may be found in, coarsest first.
class Plans {
public:
  Plans(const UnitPreamble &U, const CompilerInvocation &Invocation,
        llvm::StringRef ToolIdentity, bool SkipSystemBodies,
        llvm::StringRef NeutralDir)
      : U(U), Invocation(Invocation), ToolIdentity(ToolIdentity),
        SkipSystemBodies(SkipSystemBodies), NeutralDir(NeutralDir) {}

  EntryPlan first() const {
    bool OwnDirectory =
        !scopeOf(U.Shape, U.MainDir, Invocation.getLangOpts().MSVCCompat)
             .empty();
    return OwnDirectory ? ofDirectory() : lined(shared(""));
  }

  /// For units of the unit's own directory.
  EntryPlan ofDirectory() const {
    EntryPlan E = shared(U.MainDir);
    // A unit that bears the shared main file's own name keeps its own.
    return E.MainPath == U.MainPath ? perFile() : lined(E);
  }

  /// \p E, for units with the same text when lines of it are named.
  EntryPlan lined(EntryPlan E) const {
    return U.Shape.LineDirective ? exact(std::move(E)) : E;
  }

  /// For units of \p Scope's directory ("": of any directory).
  EntryPlan shared(llvm::StringRef Scope) const {
    CacheKey K("torch-tidy shared preamble 1");
    K.add(ToolIdentity);
    K.add(SkipSystemBodies ? "bodies=skipped" : "bodies=parsed");
    K.add(U.WorkingDir);
    for (const std::string &F : U.Flags)
      K.add(F);
    K.add(U.Shape.Normalised);
    K.add(U.Bounds.PreambleEndsAtStartOfLine ? "line start" : "mid-line");
    K.add(Scope);
    EntryPlan E;
    E.Key = K.hex();
    E.NeutralDir = Scope.empty() ? NeutralDir.str() : "";
    llvm::SmallString<256> Main(Scope.empty() ? NeutralDir : Scope);
    llvm::sys::path::append(Main, "torch-tidy-preamble" +
                                      llvm::sys::path::extension(U.MainPath));
    E.MainPath = std::string(Main);
    E.Shared = true;
    return E;
  }

  /// \p E for units whose preamble has the same text.
  EntryPlan exact(EntryPlan E) const {
    CacheKey K("torch-tidy preamble of one text 1");
    K.add(E.Key);
    K.add(U.Text);
    E.Key = K.hex();
    E.ExactText = true;
    return E;
  }

  /// For the unit's file alone, under its own name.
  EntryPlan perFile() const {
    CacheKey K("torch-tidy preamble 1");
    K.add(ToolIdentity);
    K.add(SkipSystemBodies ? "bodies=skipped" : "bodies=parsed");
    for (const FrontendInputFile &In : Invocation.getFrontendOpts().Inputs)
      K.add(In.getFile());
    for (const std::string &Arg : Invocation.getCC1CommandLine())
      K.add(Arg);
    EntryPlan E;
    E.Key = K.hex();
    E.MainPath = U.MainPath;
    return E;
  }

private:
  const UnitPreamble &U;
  const CompilerInvocation &Invocation;
  llvm::StringRef ToolIdentity;
  bool SkipSystemBodies;
  llvm::StringRef NeutralDir;
};

/// The hash an entry's manifest records of the unit's preamble.
std::string preambleHash(const EntryPlan &E, const UnitPreamble &U) {
  return contentHash(
      E.Shared && !E.ExactText ? llvm::StringRef(U.Shape.Normalised) : U.Text);
}

json::Object toJSON(const std::map<std::string, std::string> &M) {
  json::Object O;
  for (const auto &[K, V] : M)
    O[K] = V;
  return O;
}

bool writeJSON(const llvm::Twine &Path, json::Object O) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  OS << json::Value(std::move(O));
  OS.flush();
  std::string Error;
  return writeAtomically(Path.str(), Text, Error);
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

/// What an entry's manifest says, or what building it gave.
enum class Entry {
  Missing,
  Hit,
  Built,
  Unusable,
  Failed,
  /// The preamble may find other headers in the unit's directory.
  OtherDirectory,
  /// It must be shared only by units with the same text, or not at all.
  RefineText,
  RefineFile,
};

/// Fills in the paths that entry \p E looked up in vain, for unit \p U:
/// those next to the neutral main file are the unit's directory's. False
/// when one of those exists: the preamble would find another header there.
bool fitToUnit(const EntryPlan &E, const UnitPreamble &U,
               const std::vector<std::string> &Absent, Preamble &P) {
  P.Absent.clear();
  for (const std::string &A : Absent) {
    llvm::StringRef Rest = A;
    if (E.NeutralDir.empty() || !Rest.consume_front(E.NeutralDir) ||
        !Rest.starts_with("/")) {
      P.Absent.push_back(A);
      continue;
    }
    std::string Mine = U.MainDir + Rest.str();
    if (llvm::sys::fs::exists(Mine))
      return false;
    P.Absent.push_back(Mine);
  }
  return true;
}

/// Says in \p P that it reads the PCH of entry \p E, whose main file has
/// the preamble P.MainText; false when that is not one with \p U's.
bool attachMainFile(const EntryPlan &E, const UnitPreamble &U, Preamble &P,
                    const LangOptions &LangOpts) {
  P.MainPath = E.MainPath;
  if (!E.Shared)
    return true;
  P.Built = shapeOf(P.MainText, LangOpts);
  P.Unit = U.Shape;
  return P.Built.Normalised == P.Unit.Normalised &&
         (!E.ExactText || P.MainText == U.Text);
}

/// Reads the manifest of entry \p E into \p P. A hit when everything it was
/// made from is unchanged and it fits \p U; \p Replaced names the PCH of
/// the entry as it was.
Entry readManifest(llvm::StringRef Dir, const EntryPlan &E,
                   const UnitPreamble &U, const LangOptions &LangOpts,
                   Preamble &P, std::string &Replaced) {
  auto Text = llvm::MemoryBuffer::getFile(Dir + "/" + E.Key + ".json",
                                          /*IsText=*/true);
  if (!Text)
    return Entry::Missing;
  llvm::Expected<json::Value> V = json::parse((*Text)->getBuffer());
  const json::Object *O = V ? V->getAsObject() : nullptr;
  if (!V)
    llvm::consumeError(V.takeError());
  std::optional<llvm::StringRef> PCHName =
      O ? O->getString("pch") : std::nullopt;
  if (PCHName && !PCHName->empty() && !PCHName->contains('/'))
    Replaced = P.PCHPath = (Dir + "/" + *PCHName).str();
  if (!O || !dependenciesUnchanged(*O))
    return Entry::Missing;
  if (std::optional<llvm::StringRef> Refine = O->getString("refine"))
    return *Refine == "file" ? Entry::RefineFile : Entry::RefineText;
  std::optional<bool> Usable = O->getBoolean("usable");
  if (O->getString("preamble") != preambleHash(E, U) ||
      O->getBoolean("ends_at_start_of_line") != P.EndsAtStartOfLine ||
      O->getString("main") != E.MainPath || !Usable)
    return Entry::Missing;
  if (!*Usable)
    return Entry::Unusable;
  const json::Object *User = O->getObject("user");
  std::optional<llvm::StringRef> MainText = O->getString("text");
  if (!User || !MainText)
    return Entry::Missing;
  std::vector<std::string> Absent;
  P.Files = recordedFiles(*O, Absent);
  for (const auto &[Name, Hash] : *User)
    if (auto H = Hash.getAsString())
      P.UserFiles[Name.str()] = H->str();
  if (!llvm::tryGetFromHex(*MainText, P.MainText) ||
      !attachMainFile(E, U, P, LangOpts))
    return Entry::Missing;
  if (!fitToUnit(E, U, Absent, P))
    return Entry::OtherDirectory;
  if (P.PCHPath.empty() || !llvm::sys::fs::exists(P.PCHPath))
    return Entry::Missing;
  // Used: the least recently used entries go first when trimming, and a
  // PCH in use is not removed.
  ::utimes((Dir + "/" + E.Key + ".json").str().c_str(), nullptr);
  ::utimes(P.PCHPath.c_str(), nullptr);
  return Entry::Hit;
}

/// Builds the preamble of entry \p E for unit \p U and records it: the
/// entry's manifest, or, when the preamble depends on more than the entry
/// keys, a marker that sends units to a finer entry (and the manifest of
/// that one, when the PCH suits it).
class Builder {
public:
  Builder(llvm::StringRef Dir, uint64_t MaxBytes, const Plans &Plan,
          const UnitPreamble &U, const BuildRequest &R)
      : Dir(Dir), MaxBytes(MaxBytes), Plan(Plan), U(U), R(R) {}

  Entry build(const EntryPlan &E, Preamble &P, llvm::StringRef Replaced) {
    BuildOutcome Out;
    if (llvm::sys::fs::create_directories(Dir) ||
        !buildPreamble(R, E.MainPath, Dir, E.Key, P, Out))
      return Entry::Failed;
    EntryPlan Kept = E;
    if (Out.Usable && E.Shared && (Out.NamesMainFile || Out.UsesPositions)) {
      bool ToFile = Out.NamesMainFile;
      writeMarker(E, P, ToFile ? "file" : "text", Replaced);
      if (ToFile) {
        llvm::sys::fs::remove(P.PCHPath);
        return Entry::RefineFile;
      }
      Kept = Plan.exact(E);
    }
    json::Object O = recordDependencies(P.Files, P.Absent);
    O["preamble"] = preambleHash(Kept, U);
    O["ends_at_start_of_line"] = P.EndsAtStartOfLine;
    O["usable"] = Out.Usable;
    O["user"] = toJSON(P.UserFiles);
    O["pch"] = Out.Usable ? llvm::sys::path::filename(P.PCHPath).str() : "";
    O["main"] = Kept.MainPath;
    O["text"] = Kept.Shared ? llvm::toHex(U.Text) : "";
    if (writeJSON(Dir + "/" + Kept.Key + ".json", std::move(O)) &&
        Kept.Key == E.Key && !Replaced.empty() && Replaced != P.PCHPath)
      removeReplaced(Replaced);
    trimCacheDirectory(Dir, MaxBytes);
    if (!Out.Usable)
      return Entry::Unusable;
    P.MainText = Kept.Shared ? U.Text.str() : "";
    std::vector<std::string> Recorded = std::move(P.Absent);
    attachMainFile(Kept, U, P, R.Invocation.getLangOpts());
    if (!fitToUnit(Kept, U, Recorded, P))
      return Entry::OtherDirectory;
    return Entry::Built;
  }

private:
  void writeMarker(const EntryPlan &E, const Preamble &P, llvm::StringRef To,
                   llvm::StringRef Replaced) {
    json::Object O = recordDependencies(P.Files, P.Absent);
    O["refine"] = To;
    if (writeJSON(Dir + "/" + E.Key + ".json", std::move(O)) &&
        !Replaced.empty())
      removeReplaced(Replaced);
  }

  llvm::StringRef Dir;
  uint64_t MaxBytes;
  const Plans &Plan;
  const UnitPreamble &U;
  const BuildRequest &R;
};

} // namespace

PreambleCache::PreambleCache(std::string D, uint64_t MaxBytes)
    : Dir(std::move(D)), MaxBytes(MaxBytes) {
  // Made absolute once: units are compiled in their own working directories.
  llvm::SmallString<256> Abs(Dir);
  llvm::sys::fs::make_absolute(Abs);
  Dir = std::string(Abs);
}

std::optional<Preamble>
PreambleCache::get(const CompilerInvocation &Invocation, FileManager &Files,
                   std::shared_ptr<PCHContainerOperations> PCHContainerOps,
                   llvm::StringRef ToolIdentity, bool SkipSystemBodies,
                   bool MayBuild, AbsenceRecorder &Absences,
                   std::string &What) {
  What = "none";
  std::optional<UnitPreamble> U = unitPreamble(Invocation, Files);
  if (!U)
    return std::nullopt;
  // Never created: it stands for the directory of each unit that shares a
  // preamble.
  std::string NeutralDir = Dir + "/shared-main-file";
  Plans Plan(*U, Invocation, ToolIdentity, SkipSystemBodies, NeutralDir);
  BuildRequest Request{Invocation,
                       Files,
                       *U->Buffer,
                       U->Bounds,
                       std::move(PCHContainerOps),
                       SkipSystemBodies,
                       Absences};
  Builder Build(Dir, MaxBytes, Plan, *U, Request);
  EntryPlan E = Plan.first();
  // Each step goes to a finer entry; there are at most three.
  for (unsigned Step = 0; Step < 4; ++Step) {
    Preamble P;
    P.Size = U->Bounds.Size;
    P.EndsAtStartOfLine = U->Bounds.PreambleEndsAtStartOfLine;
    std::string Replaced;
    Entry Found =
        readManifest(Dir, E, *U, Invocation.getLangOpts(), P, Replaced);
    if (Found == Entry::Missing && !MayBuild) {
      What = "not built";
      return std::nullopt;
    }
    if (Found == Entry::Missing) {
      Preamble Fresh;
      Fresh.Size = P.Size;
      Fresh.EndsAtStartOfLine = P.EndsAtStartOfLine;
      P = std::move(Fresh);
      Found = Build.build(E, P, Replaced);
    }
    switch (Found) {
    case Entry::Hit:
    case Entry::Built:
      What = Found == Entry::Hit ? "hit" : "built";
      return P;
    case Entry::Unusable:
    case Entry::Failed:
    case Entry::Missing: // a build always says what it gave
      What = Found == Entry::Unusable ? "unusable" : "failed";
      return std::nullopt;
    case Entry::OtherDirectory:
      E = Plan.ofDirectory();
      break;
    case Entry::RefineText:
      E = Plan.exact(E);
      break;
    case Entry::RefineFile:
      E = Plan.perFile();
      break;
    }
  }
  return std::nullopt;
}

void PreambleCache::use(const Preamble &P, CompilerInvocation &Invocation) {
  PreprocessorOptions &PO = Invocation.getPreprocessorOpts();
  PO.ImplicitPCHInclude = P.PCHPath;
  PO.PrecompiledPreambleBytes = {P.Size, P.EndsAtStartOfLine};
  // Every file the preamble read was checked by content above.
  PO.DisablePCHOrModuleValidation = DisableValidationForModuleKind::PCH;
  // The predefines are the preamble's.
  PO.UsePredefines = false;
  // A shared preamble's main file is its builder's text, under its own name.
  if (P.isShared())
    PO.addRemappedFile(
        P.MainPath,
        llvm::MemoryBuffer::getMemBufferCopy(P.MainText, P.MainPath).release());
}

} // namespace torch_tidy
