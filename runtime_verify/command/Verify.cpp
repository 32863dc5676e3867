//===--- Verify.cpp - the `torch-tidy verify` subcommand ------------------===//
//
// The plain verify is the bundle of its programs (the static half,
// MakeBundle), built with a precompiled <torch/torch.h> and run by the
// bundle's own run script on this machine, then judged (Judge) from the
// results the run left: the same path a bundle takes when it runs
// elsewhere. The user's files are only read.
//
//===----------------------------------------------------------------------===//
#include "runtime_verify/command/Verify.h"
#include "runtime_verify/command/Analysis.h"
#include "runtime_verify/command/Judge.h"
#include "runtime_verify/command/MakeBundle.h"
#include "runtime_verify/command/VerifyInPlace.h"
#include "runtime_verify/command/VerifyOptions.h"
#include "runtime_verify/command/VerifyReport.h"

#include "base/Paths.h"
#include "base/Process.h"
#include "runtime_verify/bundle/Carry.h"
#include "runtime_verify/bundle/Layout.h"
#include "runtime_verify/bundle/Results.h"
#include "runtime_verify/instrument/ProgramBuild.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace torch_tidy::verify {

namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

static int buildOnly(const VerifyOptions &O) {
  if (!fs::exists(O.File))
    return verifyError("cannot read '" + O.File + "': no such file");
  llvm::Expected<ProgramBuilder> Builder = makeBuilder(O, O.CompileFlags);
  if (!Builder)
    return verifyError(llvm::toString(Builder.takeError()));
  // A file instrumented in place carries the probe's implementation itself.
  auto Text = llvm::MemoryBuffer::getFile(O.File);
  bool OwnProbe = Text && (*Text)->getBuffer().contains("TORCH_TIDY_PROBE_IMPLEMENTATION");
  if (llvm::Error E = Builder->build(O.File, O.Output, /*LinkProbe=*/!OwnProbe))
    return verifyError(llvm::toString(std::move(E)));
  return 0;
}

/// Builds every variant of the bundle in \p Dir as its run script would
/// (the programs in build/programs, each build's status and log in
/// results/), with the precompiled <torch/torch.h> of \p Builder.
static void buildVariants(const ProgramBuilder &Builder, const std::string &Dir,
                          const BundleManifest &M) {
  for (const BundleFinding &F : M.Findings)
    for (const BundleVariant &V : F.Variants) {
      if (!V.Error.empty())
        continue;
      std::vector<IncludeFlag> Includes;
      for (const BundleInclude &I : M.Programs[F.Program].Includes)
        Includes.push_back({I.Kind, joinPath(Dir, I.Folder)});
      std::string Results = layout::variantResults(Dir, F.Id, V.Name);
      std::string Program =
          layout::programPath(joinPath(Dir, "build"), layout::targetName(F.Id, V.Name));
      fs::create_directories(Results);
      fs::create_directories(path::parent_path(Program));
      ProcessResult R = Builder.compile(joinPath(Dir, V.Source), Program,
                                        joinPath(Results, "build.log"), includeFlags(Includes));
      if (llvm::Error E = writeStatus(joinPath(Results, "build.status"), R, Builder.timeout()))
        llvm::consumeError(std::move(E)); // the judge says the status is missing
    }
}

/// Runs the bundle's run script on the programs built here; an error when
/// it could not run the bundle at all.
static llvm::Error runBundle(const std::string &Dir, const VerifyOptions &O,
                             const std::string &LogPath) {
  ProcessOptions P;
  P.StdoutPath = LogPath;
  P.StderrPath = "=stdout";
  ProcessResult R =
      runProcess({"/bin/sh", joinPath(Dir, layout::RunScript), "--prebuilt", "--device", O.Device},
                 P);
  if (R.Started && !R.Signal && !R.TimedOut && R.ExitCode <= 1)
    return llvm::Error::success(); // 1: some program failed, which the judge reports
  auto Log = llvm::MemoryBuffer::getFile(LogPath);
  llvm::StringRef Text = Log ? (*Log)->getBuffer() : "";
  size_t At = Text.find("run: error: ");
  std::string Why = At == llvm::StringRef::npos ? R.describe()
                                                : Text.substr(At + 12).split('\n').first.str();
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "running the programs failed: " + Why);
}

/// The plain verify: the bundle of O.Files, built and run here, judged.
static int verifyHere(const VerifyOptions &O, const std::string &Self) {
  for (const std::string &File : O.Files)
    if (!fs::exists(File))
      return verifyError("cannot read '" + File + "': no such file");
  llvm::Expected<WorkFolder> Work = WorkFolder::make(O.KeepDir);
  if (!Work)
    return verifyError(llvm::toString(Work.takeError()));
  llvm::Expected<ProgramBuilder> Builder = makeBuilder(O, bundleOptions(O));
  if (!Builder)
    return verifyError(llvm::toString(Builder.takeError()));
  std::string Dir = joinPath(Work->path(), "bundle");
  llvm::Expected<BundleManifest> M = makeBundle(O, Self, &*Builder, Work->path(), Dir);
  if (!M)
    return verifyError(llvm::toString(M.takeError()));
  if (!M->Findings.empty()) {
    buildVariants(*Builder, Dir, *M);
    if (llvm::Error E = runBundle(Dir, O, joinPath(Work->path(), "run.log")))
      return verifyError(llvm::toString(std::move(E)));
  }
  llvm::Expected<Judgement> J = judgeBundle(Dir, O.MemoryLimit);
  if (!J)
    return verifyError(llvm::toString(J.takeError()));
  return reportJudgement(O, *J);
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
  if (!O.JudgeDir.empty())
    return judgeMain(O);
  if (!O.BundleDir.empty())
    return bundleMain(O, Self);
  if (!O.BuildDir.empty())
    return verifyInPlace(O, Self);
  if (O.BuildOnly)
    return buildOnly(O);
  return verifyHere(O, Self);
}

} // namespace torch_tidy::verify
