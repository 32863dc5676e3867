//===--- VerifyInPlace.cpp - verify a finding inside a real project -------===//
#include "runtime_verify/command/VerifyInPlace.h"
#include "runtime_verify/command/Analysis.h"
#include "runtime_verify/command/VerifyReport.h"
#include "runtime_verify/command/VerifyRun.h"

#include "base/Paths.h"
#include "base/Process.h"
#include "runtime_verify/bundle/Writer.h"
#include "runtime_verify/instrument/Findings.h"
#include "runtime_verify/instrument/Instrumenter.h"
#include "runtime_verify/instrument/Journal.h"
#include "runtime_verify/instrument/ProgramBuild.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace torch_tidy::verify {

namespace fs = llvm::sys::fs;

/// Where the probe's code comes from in the user's build: the header, with
/// its implementation, included by the instrumented file itself.
static std::string probePreamble(bool Cuda) {
  std::string Text = "#define TORCH_TIDY_PROBE_IMPLEMENTATION 1\n";
  if (Cuda)
    Text += "#define TORCH_TIDY_PROBE_CUDA 1\n";
  Text += "#include \"" + joinPath(probeDir(), "include/torch_tidy/probe.h") + "\"\n";
  return Text;
}

/// The insertions that instrument the file for \p Probe, probe code first.
static std::vector<Insertion> instrumentation(const VerifyOptions &O, const ProbePlan &Probe) {
  bool Cuda = false;
  if (llvm::Expected<TorchInstall> Torch = findTorch(O.TorchDir))
    Cuda = Torch->HasCuda;
  else
    llvm::consumeError(Torch.takeError());
  std::vector<Insertion> Edits = Probe.Insertions;
  Edits.push_back({0, probePreamble(Cuda)});
  return Edits;
}

/// Writes \p Text over the file (under the journal), then runs the
/// project's build and run commands and measures the probe.
static VariantResult runVariant(const VerifyOptions &O, InPlaceJournal &Journal,
                                const std::string &WorkDir, const std::string &Name,
                                llvm::Expected<std::string> Text, const Finding &F,
                                const ProbePlan &Probe) {
  VariantResult V;
  if (!Text) {
    V.Error = "cannot apply the edits: " + llvm::toString(Text.takeError());
    return V;
  }
  if (llvm::Error E = Journal.write(*Text)) {
    V.Error = llvm::toString(std::move(E));
    return V;
  }
  ProcessOptions B;
  B.StdoutPath = joinPath(WorkDir, Name + "-build.log");
  B.StderrPath = "=stdout";
  B.TimeoutSeconds = O.Timeout;
  ProcessResult Built = runProcess({"/bin/sh", "-c", O.BuildCommand}, B);
  if (!Built.succeeded()) {
    V.Error = "the build command " + Built.describe();
    return V;
  }
  return runAndMeasure({"/bin/sh", "-c", O.RunCommand}, joinPath(WorkDir, Name),
                       Probe.ProbeName, F.Probe, O);
}

int verifyInPlace(const VerifyOptions &O, const std::string &Self) {
  if (!fs::is_directory(O.BuildDir))
    return verifyError("build folder '" + O.BuildDir + "' does not exist");
  llvm::Expected<std::string> Recovered = InPlaceJournal::recover(O.BuildDir);
  if (!Recovered)
    return verifyError(llvm::toString(Recovered.takeError()));
  if (!Recovered->empty())
    llvm::errs() << "torch-tidy verify: restored " << *Recovered
                 << " from the journal of an interrupted run\n";

  llvm::SmallString<256> AbsFile(O.File);
  fs::make_absolute(AbsFile);
  std::string File = std::string(AbsFile);
  auto Buffer = llvm::MemoryBuffer::getFile(File);
  if (!Buffer)
    return verifyError("cannot read '" + O.File + "': " + Buffer.getError().message());
  std::string Code = (*Buffer)->getBuffer().str();
  llvm::Expected<std::vector<std::string>> Flags = flagsFromDatabase(O.BuildDir, File);
  if (!Flags)
    return verifyError(llvm::toString(Flags.takeError()));
  llvm::Expected<WorkFolder> Work = WorkFolder::make("");
  if (!Work)
    return verifyError(llvm::toString(Work.takeError()));

  // Analysis reads the file where it is, through the project's database.
  AnalysisRequest Request{Self, File, O.BuildDir, {}, Work->path(), O.File, /*ShowLog=*/false};
  llvm::Expected<std::vector<Finding>> All = analyse(Request, Code);
  if (!All)
    return verifyError(llvm::toString(All.takeError()));
  auto F = llvm::find_if(*All, [&](const Finding &C) { return C.Line == O.Line; });
  if (F == All->end())
    return verifyError("no growth finding at " + O.File + ":" + std::to_string(O.Line));
  llvm::Expected<ProgramPlan> Plan = planProbes(File, Code, *Flags, {*F});
  if (!Plan)
    return verifyError(llvm::toString(Plan.takeError()));
  const ProbePlan &Probe = Plan->Plans.front();
  if (!Probe.Error.empty())
    return verifyError("cannot place a probe at " + O.File + ":" + std::to_string(O.Line) + ": " +
                       Probe.Error);

  std::vector<Insertion> Edits = instrumentation(O, Probe);
  InPlaceJournal Journal;
  if (llvm::Error E = Journal.begin(O.BuildDir, File))
    return verifyError(llvm::toString(std::move(E)));
  FindingResult Result = FindingResult::of(O.File, findingFacts(*F, Probe));
  Result.Original = runVariant(O, Journal, Work->path(), "original",
                               applyInsertions(Code, Edits), *F, Probe);
  if (Result.HasFix && Result.Original.Ran)
    Result.Fixed = runVariant(O, Journal, Work->path(), "fixed",
                              applyFixAndInsertions(Code, F->Fix, Edits), *F, Probe);
  if (llvm::Error E = Journal.restore())
    return verifyError(llvm::toString(std::move(E)));

  std::vector<FindingResult> Results = {Result};
  printResults(llvm::outs(), Results, O.Format);
  return exitCodeFor(Results);
}

} // namespace torch_tidy::verify
