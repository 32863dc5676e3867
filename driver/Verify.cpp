//===--- Verify.cpp - the `torch-tidy verify` subcommand ------------------===//
//
// Analyses a program, instruments a copy of it per finding, builds and runs
// the copy as written and with the finding's fix-it, and reports the growth
// each iteration shows. The user's file is only read.
//
//===----------------------------------------------------------------------===//
#include "driver/Verify.h"
#include "driver/VerifyInPlace.h"
#include "driver/VerifyOptions.h"
#include "driver/VerifyReport.h"
#include "driver/VerifyRun.h"

#include "runtime_verify/instrument/Findings.h"
#include "runtime_verify/instrument/Instrumenter.h"
#include "runtime_verify/instrument/ProgramBuild.h"
#include "base/CacheFolder.h"
#include "base/Paths.h"
#include "base/Process.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace torch_tidy {

using namespace verify;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

static llvm::Error writeFile(const std::string &Path, llvm::StringRef Text) {
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC);
  if (EC)
    return llvm::createStringError(EC, "cannot write " + Path + ": " + EC.message());
  OS << Text;
  OS.close();
  if (OS.has_error())
    return llvm::createStringError(OS.error(), "cannot write " + Path);
  return llvm::Error::success();
}

/// Removes a folder tree on every way out of the function.
struct TempDir {
  std::string Path;
  bool Keep = false;
  ~TempDir() {
    if (!Path.empty() && !Keep)
      fs::remove_directories(Path);
  }
};

static std::string compilerPath(const VerifyOptions &O) {
  return O.Compiler.empty() ? std::string(TORCH_TIDY_VERIFY_CLANGXX) : O.Compiler;
}

/// Builds the ProgramBuilder for the options (LibTorch, cache, flags).
static llvm::Expected<ProgramBuilder> makeBuilder(const VerifyOptions &O,
                                                  std::vector<std::string> ExtraFlags) {
  llvm::Expected<TorchInstall> Torch = findTorch(O.TorchDir);
  if (!Torch)
    return Torch.takeError();
  std::vector<std::string> Flags = O.CompileFlags;
  Flags.insert(Flags.end(), ExtraFlags.begin(), ExtraFlags.end());
  ProgramBuilder Builder(*Torch, compilerPath(O), cacheFolder(O.CacheDir),
                         Flags, O.Timeout);
  if (llvm::Error E = Builder.prepare())
    return std::move(E);
  return Builder;
}

static int buildOnly(const VerifyOptions &O) {
  if (!fs::exists(O.File))
    return verifyError("cannot read '" + O.File + "': no such file");
  llvm::Expected<ProgramBuilder> Builder = makeBuilder(O, {});
  if (!Builder)
    return verifyError(llvm::toString(Builder.takeError()));
  // A file instrumented in place carries the probe's implementation itself.
  auto Text = llvm::MemoryBuffer::getFile(O.File);
  bool OwnProbe = Text && (*Text)->getBuffer().contains("TORCH_TIDY_PROBE_IMPLEMENTATION");
  if (llvm::Error E = Builder->build(O.File, O.Output, /*LinkProbe=*/!OwnProbe))
    return verifyError(llvm::toString(std::move(E)));
  return 0;
}

/// Runs torch-tidy on `File` and returns its findings.
static llvm::Expected<std::vector<Finding>>
analyse(const std::string &Self, const std::string &File, llvm::StringRef Code,
        const std::vector<std::string> &Flags, const std::string &WorkDir,
        const std::string &BuildDir) {
  std::string Yaml = joinPath(WorkDir, "findings.yaml");
  std::string Log = joinPath(WorkDir, "analysis.log");
  std::vector<std::string> Argv = {Self, "-checks=" + verifiableChecksFilter(),
                                   "--export-fixes=" + Yaml};
  if (!BuildDir.empty())
    Argv.push_back("-p=" + BuildDir);
  Argv.push_back(File);
  if (BuildDir.empty()) {
    Argv.push_back("--");
    Argv.insert(Argv.end(), Flags.begin(), Flags.end());
  }
  ProcessOptions P;
  P.StdoutPath = Log;
  P.StderrPath = "=stdout";
  ProcessResult R = runProcess(Argv, P);
  if (!R.Started || R.Signal || R.TimedOut || R.ExitCode > 1)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "the analysis of " + std::string(path::filename(File)) +
                                       " failed (" + R.describe() + "; log: " + Log + ")");
  return readFindings(Yaml, File, Code);
}

static std::vector<Finding> selectLine(std::vector<Finding> Findings, unsigned Line) {
  if (!Line)
    return Findings;
  std::vector<Finding> At;
  for (Finding &F : Findings)
    if (F.Line == Line)
      At.push_back(std::move(F));
  return At;
}

static int verifyCopies(const VerifyOptions &O, const std::string &Self) {
  auto Buffer = llvm::MemoryBuffer::getFile(O.File);
  if (!Buffer)
    return verifyError("cannot read '" + O.File + "': " + Buffer.getError().message());
  std::string Code = (*Buffer)->getBuffer().str();
  llvm::SmallString<256> SourceDir(O.File);
  fs::make_absolute(SourceDir);
  path::remove_filename(SourceDir);
  std::string Base = std::string(path::filename(O.File));

  TempDir Work;
  if (!O.KeepDir.empty()) {
    if (std::error_code EC = fs::create_directories(O.KeepDir))
      return verifyError("cannot create " + O.KeepDir + ": " + EC.message());
    Work.Path = O.KeepDir;
    Work.Keep = true;
  } else {
    llvm::SmallString<256> Dir;
    if (std::error_code EC = fs::createUniqueDirectory("torch-tidy-verify", Dir))
      return verifyError("cannot create a temporary folder: " + EC.message());
    Work.Path = std::string(Dir);
  }

  // Quoted includes of the program resolve from its own folder.
  llvm::Expected<ProgramBuilder> Builder =
      makeBuilder(O, {"-iquote", std::string(SourceDir)});
  if (!Builder)
    return verifyError(llvm::toString(Builder.takeError()));

  std::string Copy = joinPath(joinPath(Work.Path, "analysed"), Base);
  fs::create_directories(path::parent_path(Copy));
  if (llvm::Error E = writeFile(Copy, Code))
    return verifyError(llvm::toString(std::move(E)));

  std::vector<std::string> Flags = Builder->parseFlags();
  llvm::Expected<std::vector<Finding>> All = analyse(Self, Copy, Code, Flags, Work.Path, "");
  if (!All)
    return verifyError(llvm::toString(All.takeError()));
  std::vector<Finding> Findings = selectLine(std::move(*All), O.Line);
  if (Findings.empty()) {
    if (O.Line)
      return verifyError("no growth finding at " + O.File + ":" + std::to_string(O.Line));
    if (O.Format == "json")
      llvm::outs() << "[]\n";
    else
      llvm::outs() << O.File << ": no growth finding to verify\n";
    return 0;
  }

  llvm::Expected<ProgramPlan> Plan = planProbes(Copy, Code, Flags, Findings);
  if (!Plan)
    return verifyError(llvm::toString(Plan.takeError()));
  if (!Plan->HasMain)
    return verifyError(O.File + " has no main(): verify builds and runs whole programs (for a "
                         "project, use -p BUILD --build CMD --run CMD FILE:LINE)");

  std::vector<FindingResult> Results;
  for (size_t I = 0; I < Findings.size(); ++I) {
    const Finding &F = Findings[I];
    const ProbePlan &P = Plan->Plans[I];
    FindingResult R;
    R.File = O.File;
    R.Line = F.Line;
    R.Check = F.Check;
    R.Target = P.Target;
    R.Where = P.Where;
    R.HasFix = !F.Fix.empty();
    if (!P.Error.empty()) {
      R.Error = P.Error;
      Results.push_back(std::move(R));
      continue;
    }
    std::string Dir = joinPath(Work.Path, "finding-" + std::to_string(I + 1));
    auto Variant = [&](const std::string &Name, llvm::Expected<std::string> Text) {
      VariantResult V;
      if (!Text) {
        V.Error = "cannot apply the edits: " + llvm::toString(Text.takeError());
        return V;
      }
      std::string VarDir = joinPath(Dir, Name);
      fs::create_directories(VarDir);
      std::string Source = joinPath(VarDir, Base);
      std::string Program = joinPath(VarDir, "program");
      if (llvm::Error E = writeFile(Source, *Text)) {
        V.Error = llvm::toString(std::move(E));
        return V;
      }
      if (llvm::Error E = Builder->build(Source, Program)) {
        V.Error = llvm::toString(std::move(E));
        return V;
      }
      return runAndMeasure({Program}, joinPath(VarDir, "trace.jsonl"), P.ProbeName, F.Check, O,
                           joinPath(VarDir, "run.log"));
    };
    R.Original = Variant("original", applyInsertions(Code, P.Insertions));
    if (R.HasFix && R.Original.Ran)
      R.Fixed = Variant("fixed", applyFixAndInsertions(Code, F.Fix, P.Insertions));
    Results.push_back(std::move(R));
  }
  if (O.Format == "json")
    printJson(llvm::outs(), Results);
  else
    printText(llvm::outs(), Results);
  return exitCodeFor(Results);
}

int verifyMain(int Argc, const char **Argv) {
  VerifyOptions O;
  std::string Error;
  if (Argc > 1 && (llvm::StringRef(Argv[1]) == "--help" || llvm::StringRef(Argv[1]) == "-h")) {
    llvm::outs() << VerifyUsage;
    return 0;
  }
  if (!parseVerifyOptions(Argc, Argv, O, Error)) {
    llvm::errs() << "torch-tidy verify: error: " << Error << "\n" << VerifyUsage;
    return 2;
  }
  std::string Self = fs::getMainExecutable(Argv[0], reinterpret_cast<void *>(&verifyMain));
  if (!O.BuildDir.empty())
    return verifyInPlace(O, Self);
  if (O.BuildOnly)
    return buildOnly(O);
  return verifyCopies(O, Self);
}

} // namespace torch_tidy
