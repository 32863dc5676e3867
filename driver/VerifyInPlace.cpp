//===--- VerifyInPlace.cpp - verify a finding inside a real project -------===//
#include "driver/VerifyInPlace.h"
#include "driver/VerifyReport.h"
#include "driver/VerifyRun.h"

#include "runtime_verify/instrument/Findings.h"
#include "runtime_verify/instrument/Instrumenter.h"
#include "runtime_verify/instrument/Journal.h"
#include "base/Paths.h"
#include "base/Process.h"
#include "runtime_verify/instrument/ProgramBuild.h"

#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace torch_tidy {

using namespace verify;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

/// The compile command's flags for File, without the compiler, the file
/// and the output.
static llvm::Expected<std::vector<std::string>> flagsFromDatabase(const std::string &BuildDir,
                                                                  const std::string &File) {
  std::string Error;
  auto DB = clang::tooling::JSONCompilationDatabase::loadFromDirectory(BuildDir, Error);
  if (!DB)
    return llvm::createStringError(llvm::inconvertibleErrorCode(), Error);
  std::vector<clang::tooling::CompileCommand> Commands = DB->getCompileCommands(File);
  if (Commands.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   File + " is not in " + BuildDir + "/compile_commands.json");
  const clang::tooling::CompileCommand &C = Commands.front();
  std::vector<std::string> Args = clang::tooling::getClangStripOutputAdjuster()(C.CommandLine, File);
  Args = clang::tooling::getClangStripDependencyFileAdjuster()(Args, File);
  std::vector<std::string> Flags = {"-working-directory=" + C.Directory};
  for (size_t I = 1; I < Args.size(); ++I) {
    llvm::StringRef A = Args[I];
    if (A == "-c" || A == C.Filename || A == File || A == "--")
      continue;
    Flags.push_back(Args[I]);
  }
  return Flags;
}

/// Where the probe's code comes from in the user's build: the header, with
/// its implementation, included by the instrumented file itself.
static std::string probePreamble(bool Cuda) {
  std::string Text = "#define TORCH_TIDY_PROBE_IMPLEMENTATION 1\n";
  if (Cuda)
    Text += "#define TORCH_TIDY_PROBE_CUDA 1\n";
  Text += "#include \"" + joinPath(probeDir(), "include/torch_tidy/probe.h") + "\"\n";
  return Text;
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

  llvm::SmallString<256> WorkDir;
  if (std::error_code EC = fs::createUniqueDirectory("torch-tidy-verify", WorkDir))
    return verifyError("cannot create a temporary folder: " + EC.message());
  struct Cleanup {
    std::string Dir;
    ~Cleanup() { fs::remove_directories(Dir); }
  } CleanWork{std::string(WorkDir)};

  // Analysis reads the file where it is, through the project's database.
  std::string Yaml = joinPath(WorkDir, "findings.yaml");
  std::string Log = joinPath(WorkDir, "analysis.log");
  ProcessOptions P;
  P.StdoutPath = Log;
  P.StderrPath = "=stdout";
  ProcessResult R = runProcess({Self, "-checks=" + verifiableChecksFilter(),
                                "--export-fixes=" + Yaml, "-p=" + O.BuildDir, File},
                               P);
  if (!R.Started || R.Signal || R.TimedOut || R.ExitCode > 1)
    return verifyError("the analysis of " + O.File + " failed (" + R.describe() + ")");
  llvm::Expected<std::vector<Finding>> All = readFindings(Yaml, File, Code);
  if (!All)
    return verifyError(llvm::toString(All.takeError()));
  const Finding *F = nullptr;
  for (const Finding &Cand : *All)
    if (Cand.Line == O.Line && !F)
      F = &Cand;
  if (!F)
    return verifyError("no growth finding at " + O.File + ":" + std::to_string(O.Line));

  llvm::Expected<ProgramPlan> Plan = planProbes(File, Code, *Flags, {*F});
  if (!Plan)
    return verifyError(llvm::toString(Plan.takeError()));
  const ProbePlan &Probe = Plan->Plans.front();
  FindingResult Result;
  Result.File = O.File;
  Result.Line = F->Line;
  Result.Check = F->Check;
  Result.Target = Probe.Target;
  Result.Where = Probe.Where;
  Result.HasFix = !F->Fix.empty();
  if (!Probe.Error.empty())
    return verifyError("cannot place a probe at " + O.File + ":" + std::to_string(O.Line) + ": " +
                Probe.Error);

  bool Cuda = false;
  if (llvm::Expected<TorchInstall> Torch = findTorch(O.TorchDir))
    Cuda = Torch->HasCuda;
  else
    llvm::consumeError(Torch.takeError());
  std::vector<Insertion> Edits = Probe.Insertions;
  Edits.push_back({0, probePreamble(Cuda)});

  InPlaceJournal Journal;
  if (llvm::Error E = Journal.begin(O.BuildDir, File))
    return verifyError(llvm::toString(std::move(E)));

  auto Variant = [&](const std::string &Name, llvm::Expected<std::string> Text) {
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
    return runAndMeasure({"/bin/sh", "-c", O.RunCommand}, joinPath(WorkDir, Name + ".jsonl"),
                         Probe.ProbeName, F->Check, O, joinPath(WorkDir, Name + "-run.log"));
  };
  Result.Original = Variant("original", applyInsertions(Code, Edits));
  if (Result.HasFix && Result.Original.Ran)
    Result.Fixed = Variant("fixed", applyFixAndInsertions(Code, F->Fix, Edits));
  if (llvm::Error E = Journal.restore())
    return verifyError(llvm::toString(std::move(E)));

  std::vector<FindingResult> Results = {Result};
  if (O.Format == "json")
    printJson(llvm::outs(), Results);
  else
    printText(llvm::outs(), Results);
  return exitCodeFor(Results);
}

} // namespace torch_tidy
