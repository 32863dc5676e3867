//===--- Verify.cpp - the `torch-tidy verify` subcommand ------------------===//
//
// Analyses a program, instruments a copy of it per finding, builds and runs
// the copy as written and with the finding's fix-it, and reports the growth
// each iteration shows. The user's file is only read.
//
//===----------------------------------------------------------------------===//
#include "runtime_verify/command/Verify.h"
#include "runtime_verify/command/Analysis.h"
#include "runtime_verify/command/VerifyInPlace.h"
#include "runtime_verify/command/VerifyOptions.h"
#include "runtime_verify/command/VerifyReport.h"
#include "runtime_verify/command/VerifyRun.h"

#include "base/AtomicWrite.h"
#include "base/CacheFolder.h"
#include "base/Paths.h"
#include "runtime_verify/instrument/Findings.h"
#include "runtime_verify/instrument/Instrumenter.h"
#include "runtime_verify/instrument/ProgramBuild.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace torch_tidy::verify {

namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

static llvm::Error writeFile(const std::string &Path, llvm::StringRef Text) {
  std::string Error;
  if (!writeAtomically(Path, Text, Error))
    return llvm::createStringError(llvm::inconvertibleErrorCode(), Error);
  return llvm::Error::success();
}

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

static std::vector<Finding> selectLine(std::vector<Finding> Findings, unsigned Line) {
  if (!Line)
    return Findings;
  std::vector<Finding> At;
  for (Finding &F : Findings)
    if (F.Line == Line)
      At.push_back(std::move(F));
  return At;
}

namespace {

/// The program being verified: its text, its instrumented copies' folder,
/// and how to build them.
struct Program {
  const VerifyOptions &O;
  std::string Code, Base; ///< its text and its file name
  std::string WorkDir;
  ProgramBuilder &Builder;

  /// Writes \p Text as variant \p Name of finding \p Index, builds it and
  /// runs it with the probe.
  VariantResult runVariant(size_t Index, const std::string &Name,
                           llvm::Expected<std::string> Text, const Finding &F,
                           const ProbePlan &P) const {
    VariantResult V;
    if (!Text) {
      V.Error = "cannot apply the edits: " + llvm::toString(Text.takeError());
      return V;
    }
    std::string VarDir =
        joinPath(joinPath(WorkDir, "finding-" + std::to_string(Index + 1)), Name);
    fs::create_directories(VarDir);
    std::string Source = joinPath(VarDir, Base);
    std::string Binary = joinPath(VarDir, "program");
    if (llvm::Error E = writeFile(Source, *Text)) {
      V.Error = llvm::toString(std::move(E));
      return V;
    }
    if (llvm::Error E = Builder.build(Source, Binary)) {
      V.Error = llvm::toString(std::move(E));
      return V;
    }
    return runAndMeasure({Binary}, joinPath(VarDir, "trace.jsonl"), P.ProbeName, F.Probe, O,
                         joinPath(VarDir, "run.log"));
  }

  /// Runs finding \p Index as written and, when it has one, with its fix.
  FindingResult runFinding(size_t Index, const Finding &F, const ProbePlan &P) const {
    FindingResult R = FindingResult::of(O.File, F, P);
    if (!R.Error.empty())
      return R;
    R.Original = runVariant(Index, "original", applyInsertions(Code, P.Insertions), F, P);
    if (R.HasFix && R.Original.Ran)
      R.Fixed = runVariant(Index, "fixed", applyFixAndInsertions(Code, F.Fix, P.Insertions),
                           F, P);
    return R;
  }
};

} // namespace

static int verifyCopies(const VerifyOptions &O, const std::string &Self) {
  auto Buffer = llvm::MemoryBuffer::getFile(O.File);
  if (!Buffer)
    return verifyError("cannot read '" + O.File + "': " + Buffer.getError().message());
  llvm::SmallString<256> SourceDir(O.File);
  fs::make_absolute(SourceDir);
  path::remove_filename(SourceDir);
  llvm::Expected<WorkFolder> Work = WorkFolder::make(O.KeepDir);
  if (!Work)
    return verifyError(llvm::toString(Work.takeError()));
  // Quoted includes of the program resolve from its own folder.
  llvm::Expected<ProgramBuilder> Builder =
      makeBuilder(O, {"-iquote", std::string(SourceDir)});
  if (!Builder)
    return verifyError(llvm::toString(Builder.takeError()));
  Program Prog{O, (*Buffer)->getBuffer().str(), std::string(path::filename(O.File)),
               Work->path(), *Builder};

  std::string Copy = joinPath(joinPath(Work->path(), "analysed"), Prog.Base);
  fs::create_directories(path::parent_path(Copy));
  if (llvm::Error E = writeFile(Copy, Prog.Code))
    return verifyError(llvm::toString(std::move(E)));
  AnalysisRequest Request{Self,        Copy, "", Builder->parseFlags(), Work->path(),
                          Prog.Base, /*ShowLog=*/true};
  llvm::Expected<std::vector<Finding>> All = analyse(Request, Prog.Code);
  if (!All)
    return verifyError(llvm::toString(All.takeError()));
  std::vector<Finding> Findings = selectLine(std::move(*All), O.Line);
  if (Findings.empty()) {
    if (O.Line)
      return verifyError("no growth finding at " + O.File + ":" + std::to_string(O.Line));
    llvm::outs() << (O.Format == "json" ? "[]\n"
                                        : O.File + ": no growth finding to verify\n");
    return 0;
  }

  llvm::Expected<ProgramPlan> Plan = planProbes(Copy, Prog.Code, Request.Flags, Findings);
  if (!Plan)
    return verifyError(llvm::toString(Plan.takeError()));
  if (!Plan->HasMain)
    return verifyError(O.File + " has no main(): verify builds and runs whole programs (for a "
                         "project, use -p BUILD --build CMD --run CMD FILE:LINE)");
  std::vector<FindingResult> Results;
  for (size_t I = 0; I < Findings.size(); ++I)
    Results.push_back(Prog.runFinding(I, Findings[I], Plan->Plans[I]));
  printResults(llvm::outs(), Results, O.Format);
  return exitCodeFor(Results);
}

int verifyMain(int Argc, const char **Argv) {
  VerifyOptions O;
  std::string Error;
  if (Argc > 1 && (llvm::StringRef(Argv[1]) == "--help" || llvm::StringRef(Argv[1]) == "-h")) {
    llvm::outs() << verifyUsage();
    return 0;
  }
  if (!parseVerifyOptions(Argc, Argv, O, Error)) {
    llvm::errs() << "torch-tidy verify: error: " << Error << "\n" << verifyUsage();
    return 2;
  }
  std::string Self = fs::getMainExecutable(Argv[0], reinterpret_cast<void *>(&verifyMain));
  if (!O.BuildDir.empty())
    return verifyInPlace(O, Self);
  if (O.BuildOnly)
    return buildOnly(O);
  return verifyCopies(O, Self);
}

} // namespace torch_tidy::verify
