//===--- MakeBundle.cpp - the static half of verify -----------------------===//
#include "runtime_verify/command/MakeBundle.h"
#include "runtime_verify/command/Analysis.h"
#include "runtime_verify/command/VerifyReport.h"
#include "runtime_verify/command/VerifyRun.h"

#include "base/AtomicWrite.h"
#include "base/CacheFolder.h"
#include "base/Paths.h"
#include "runtime_verify/bundle/Carry.h"
#include "runtime_verify/bundle/Layout.h"
#include "runtime_verify/bundle/Writer.h"
#include "runtime_verify/instrument/Findings.h"
#include "runtime_verify/instrument/Instrumenter.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

namespace torch_tidy::verify {

namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

static llvm::Error fail(const std::string &Message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Message);
}

llvm::Expected<ProgramBuilder> makeBuilder(const VerifyOptions &O,
                                           const std::vector<std::string> &Flags) {
  llvm::Expected<TorchInstall> Torch = findTorch(O.TorchDir);
  if (!Torch)
    return Torch.takeError();
  std::string Compiler = O.Compiler.empty() ? std::string(TORCH_TIDY_VERIFY_CLANGXX) : O.Compiler;
  ProgramBuilder Builder(*Torch, Compiler, cacheFolder(O.CacheDir), Flags, O.Timeout);
  if (llvm::Error E = Builder.prepare())
    return std::move(E);
  return Builder;
}

std::vector<std::string> bundleOptions(const VerifyOptions &O) {
  return carriedOptions(splitIncludeFlags(O.CompileFlags));
}

/// How verdicts name the program the user named \p UserPath: as given when
/// that is a relative path inside the current folder, else relative to the
/// current folder when inside it, else by its file name (a bundle names no
/// folder of the machine it was made on).
static std::string displayName(const std::string &UserPath) {
  llvm::SmallString<256> P(UserPath);
  path::remove_dots(P, /*remove_dot_dot=*/false);
  if (path::is_relative(P) && !llvm::is_contained(llvm::make_range(path::begin(P), path::end(P)), ".."))
    return std::string(P);
  llvm::SmallString<256> Abs(UserPath), Cwd;
  fs::make_absolute(Abs);
  path::remove_dots(Abs, /*remove_dot_dot=*/true);
  if (!fs::current_path(Cwd) && Abs.str().starts_with((Cwd + "/").str()))
    return Abs.substr(Cwd.size() + 1).str();
  return path::filename(UserPath).str();
}

/// Reads the program \p File and the flags it compiles with.
struct ProgramSource {
  std::string Code, SourceDir;
  std::vector<std::string> Flags; ///< the user's, or the compile database's
};

static llvm::Expected<ProgramSource> readProgram(const VerifyOptions &O, const std::string &File) {
  auto Buffer = llvm::MemoryBuffer::getFile(File);
  if (!Buffer)
    return fail("cannot read '" + File + "': " + Buffer.getError().message());
  ProgramSource S;
  S.Code = (*Buffer)->getBuffer().str();
  llvm::SmallString<256> Abs(File);
  fs::make_absolute(Abs);
  path::remove_dots(Abs, /*remove_dot_dot=*/true);
  S.SourceDir = path::parent_path(Abs).str();
  S.Flags = O.CompileFlags;
  if (!O.BuildDir.empty()) {
    llvm::Expected<std::vector<std::string>> Flags = flagsFromDatabase(O.BuildDir, Abs.str().str());
    if (!Flags)
      return Flags.takeError();
    S.Flags = std::move(*Flags);
  }
  return S;
}

/// Program \p K of O.Files, analysed, with a probe planned per finding.
static llvm::Expected<ProgramInput> inspect(const VerifyOptions &O, const std::string &Self,
                                            const ProgramBuilder *Builder,
                                            const std::string &WorkDir, size_t K) {
  const std::string &File = O.Files[K];
  llvm::Expected<ProgramSource> Source = readProgram(O, File);
  if (!Source)
    return Source.takeError();
  ProgramInput P;
  P.File = displayName(File);
  P.Base = path::filename(File).str();
  P.Code = Source->Code;
  SplitFlags Split = splitIncludeFlags(Source->Flags);
  // Parsed with LibTorch's headers and the precompiled one, or as the
  // project compiles it; quoted includes resolve from the program's folder.
  std::vector<std::string> Parse = Source->Flags;
  if (Builder) {
    Parse = Builder->parseFlags();
    for (const std::string &F : includeFlags(Split.Includes))
      Parse.push_back(F);
  }
  Parse.insert(Parse.end(), {"-iquote", Source->SourceDir});

  std::string Folder = joinPath(WorkDir, "analysed-" + std::to_string(K + 1));
  std::string Copy = joinPath(Folder, P.Base);
  std::string Error;
  if (std::error_code EC = fs::create_directories(Folder))
    return fail("cannot create " + Folder + ": " + EC.message());
  if (!writeAtomically(Copy, P.Code, Error))
    return fail(Error);
  AnalysisRequest Request{Self, Copy, "", Parse, Folder, P.Base, /*ShowLog=*/true};
  llvm::Expected<std::vector<Finding>> All = analyse(Request, P.Code);
  if (!All)
    return All.takeError();
  for (Finding &F : *All)
    if (!O.Line || F.Line == O.Line)
      P.Findings.push_back(std::move(F));
  if (P.Findings.empty()) {
    if (O.Line)
      return fail("no growth finding at " + File + ":" + std::to_string(O.Line));
    return P;
  }
  llvm::Expected<ProgramPlan> Plan = planProbes(Copy, P.Code, Parse, P.Findings);
  if (!Plan)
    return Plan.takeError();
  if (!Plan->HasMain)
    return fail(File + " has no main(): verify builds and runs whole programs (for a "
                       "project, use -p BUILD --build CMD --run CMD FILE:LINE)");
  P.Plans = std::move(Plan->Plans);
  std::vector<std::string> TorchDirs;
  if (Builder)
    TorchDirs = Builder->torch().IncludeDirs;
  P.Carry = planCarry(Split, Source->SourceDir, Plan->Included, TorchDirs,
                      "programs/" + std::to_string(K + 1));
  return P;
}

llvm::Expected<BundleManifest> makeBundle(const VerifyOptions &O, const std::string &Self,
                                          const ProgramBuilder *Builder,
                                          const std::string &WorkDir,
                                          const std::string &BundleDir) {
  std::vector<ProgramInput> Programs;
  for (size_t K = 0; K < O.Files.size(); ++K) {
    llvm::Expected<ProgramInput> P = inspect(O, Self, Builder, WorkDir, K);
    if (!P)
      return P.takeError();
    Programs.push_back(std::move(*P));
  }
  return writeBundle(BundleDir, settingsOf(O), Programs);
}

int bundleMain(const VerifyOptions &O, const std::string &Self) {
  if (llvm::Error E = checkBundleFolder(O.BundleDir))
    return verifyError(llvm::toString(std::move(E)));
  llvm::Expected<WorkFolder> Work = WorkFolder::make(O.KeepDir);
  if (!Work)
    return verifyError(llvm::toString(Work.takeError()));
  std::optional<ProgramBuilder> Builder;
  if (O.BuildDir.empty()) {
    llvm::Expected<ProgramBuilder> Made = makeBuilder(O, bundleOptions(O));
    if (!Made)
      return verifyError(llvm::toString(Made.takeError()));
    Builder.emplace(std::move(*Made));
  }
  llvm::Expected<BundleManifest> M =
      makeBundle(O, Self, Builder ? &*Builder : nullptr, Work->path(), O.BundleDir);
  if (!M)
    return verifyError(llvm::toString(M.takeError()));
  unsigned Programs = 0;
  std::vector<bool> HasFindings(M->Programs.size(), false);
  for (const BundleFinding &F : M->Findings) {
    HasFindings[F.Program] = true;
    for (const BundleVariant &V : F.Variants)
      Programs += V.Error.empty();
  }
  for (size_t K = 0; K < HasFindings.size(); ++K)
    if (!HasFindings[K])
      llvm::outs() << M->Programs[K].File << ": no growth finding to verify\n";
  llvm::outs() << "torch-tidy verify: wrote the bundle " << O.BundleDir << ": "
               << M->Findings.size() << " findings, " << Programs
               << " programs to build and run\n"
               << "  run it where LibTorch is:  " << joinPath(O.BundleDir, layout::RunScript)
               << " [--device cuda|cpu|auto] [--torch LIBTORCH]\n"
               << "  then judge it:             torch-tidy verify --judge " << O.BundleDir
               << "\n";
  return 0;
}

} // namespace torch_tidy::verify
