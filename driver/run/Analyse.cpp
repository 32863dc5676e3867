//===--- Analyse.cpp - stage 3: the units through the checks --------------===//

#include "driver/run/Analyse.h"

#include "base/AtomicWrite.h"
#include "base/ResultFile.h"
#include "driver/ExitCodes.h"
#include "driver/engine/Engine.h"
#include "driver/engine/ResultCache.h"
#include "driver/run/PreambleGroups.h"
#include "driver/run/TestHooks.h"
#include "driver/run/Workers.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"

#include <unistd.h>

namespace torch_tidy {

std::string selfExecutable(const char *Argv0) {
  return llvm::sys::fs::getMainExecutable(
      Argv0, reinterpret_cast<void *>(&selfExecutable));
}

static std::string toolIdentity(const char *Argv0) {
  return ResultCache::toolIdentity(Argv0,
                                   reinterpret_cast<void *>(&selfExecutable));
}

int runAsWorker(const DriverOptions &O, RunSetup &S, const char *Argv0) {
  if (O.Files.size() != 1)
    return fail("a worker takes exactly one file");
  testHook(TestHook::WorkerStarts, O.Files.front());
  TUResult R = runEngine(O, *S.Context, *S.Compilations, O.Files.front(),
                         toolIdentity(Argv0));
  std::string Text, Error;
  llvm::raw_string_ostream OS(Text);
  OS << toJSON(R);
  OS.flush();
  if (!writeAtomically(O.WorkerOutput, Text, Error))
    return fail(Error);
  return ExitClean;
}

/// How to start the workers of this run.
static WorkerPlan workerPlan(const DriverOptions &O, RunSetup &S,
                             const UnitSelection &Sel, const char *Argv0,
                             bool MayBuildPreambles) {
  WorkerPlan Plan;
  Plan.Executable = selfExecutable(Argv0);
  Plan.CommonArgs = workerArguments(O);
  if (O.HasFixedFlags) {
    Plan.TrailingArgs.push_back("--");
    Plan.TrailingArgs.insert(Plan.TrailingArgs.end(), O.FixedFlags.begin(),
                             O.FixedFlags.end());
  }
  Plan.Jobs =
      O.Jobs
          ? O.Jobs
          : std::max(1u, llvm::hardware_concurrency().compute_thread_count());
  Plan.ShowProgress =
      O.Progress == "always" || (O.Progress == "auto" && ::isatty(2));
  // A header given on the command line is reported whatever the header
  // filter says.
  for (const auto &[Unit, Files] : Sel.OnlyFiles) {
    std::string Filter =
        S.Context->getOptionsForFile(Unit).HeaderFilterRegex.value_or("");
    for (const std::string &F : Files)
      if (F != Unit)
        Filter = (Filter.empty() ? "" : "(" + Filter + ")|") + "(^|/)" +
                 llvm::Regex::escape(llvm::sys::path::filename(F)) + "$";
    Plan.UnitArgs[Unit].push_back("--header-filter=" + Filter);
  }
  if (O.UseCache && O.UsePreamble && MayBuildPreambles) {
    Plan.PreambleGroup = preambleGroups(S, Sel.Units);
    Plan.BuilderArgs = {"--torch-tidy-build-preambles"};
  }
  return Plan;
}

std::vector<TUResult> analyseUnits(DriverOptions &O, RunSetup &S,
                                   UnitSelection &Sel, const char *Argv0) {
  std::vector<TUResult> Results;
  // A preamble pays off when the same file is checked again after an edit
  // (an editor, a hook on one file), or when other units of the run share
  // it; a run over many units, often a cold CI run, otherwise only reuses
  // the preambles it finds.
  bool MayBuild = O.BuildPreambles;
  O.BuildPreambles = O.BuildPreambles && Sel.Units.size() == 1;
  bool InProcess =
      Sel.Units.size() == 1 && O.ProjectFlag.empty() && Sel.OnlyFiles.empty();
  if (InProcess)
    Results.push_back(runEngine(O, *S.Context, *S.Compilations,
                                Sel.Units.front(), toolIdentity(Argv0)));
  else if (!Sel.Units.empty())
    Results = runWorkers(workerPlan(O, S, Sel, Argv0, MayBuild), Sel.Units);
  for (TUResult &R : Sel.Unusable)
    Results.push_back(std::move(R));
  return Results;
}

} // namespace torch_tidy
