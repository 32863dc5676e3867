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

#include <set>
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

namespace {

/// What the result cache answered before any worker started.
struct CacheAnswers {
  /// By unit index: the cached result of a unit nothing of which changed.
  std::vector<std::optional<TUResult>> Found;
  /// Units looked up in vain: their workers need not look again.
  std::set<std::string> Missed;
};

} // namespace

/// Looks every unit up in the result cache here, hashing each file they
/// depend on once for the whole run (the LibTorch headers are shared by
/// all), so that an unchanged unit costs no worker at all. A unit reported
/// only for the headers given on the command line runs with its own header
/// filter, so its worker looks it up.
static CacheAnswers lookUpUnits(const DriverOptions &O, RunSetup &S,
                                const UnitSelection &Sel,
                                llvm::StringRef ToolIdentity) {
  CacheAnswers A;
  A.Found.resize(Sel.Units.size());
  FileStateMemo Memo;
  for (size_t I = 0; I < Sel.Units.size(); ++I) {
    const std::string &Unit = Sel.Units[I];
    if (Sel.OnlyFiles.count(Unit))
      continue;
    bool LookedUp = false;
    A.Found[I] = cachedResult(O, *S.Context, *S.Compilations, Unit,
                              ToolIdentity, Memo, LookedUp);
    if (LookedUp && !A.Found[I])
      A.Missed.insert(Unit);
  }
  return A;
}

/// How to start the workers of this run, for the units the cache did not
/// answer.
static WorkerPlan workerPlan(const DriverOptions &O, RunSetup &S,
                             const UnitSelection &Sel, const char *Argv0,
                             bool MayBuildPreambles,
                             const CacheAnswers &Answers) {
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
  for (const std::string &Unit : Answers.Missed)
    Plan.UnitArgs[Unit].push_back("--torch-tidy-cache-missed");
  if (O.UseCache && O.UsePreamble && MayBuildPreambles) {
    // Only the units that are analysed read a preamble.
    std::vector<std::string> Analysed;
    for (size_t I = 0; I < Sel.Units.size(); ++I)
      if (!Answers.Found[I])
        Analysed.push_back(Sel.Units[I]);
    Plan.PreambleGroup = preambleGroups(S, Analysed);
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
  else if (!Sel.Units.empty()) {
    CacheAnswers Answers = lookUpUnits(O, S, Sel, toolIdentity(Argv0));
    WorkerPlan Plan = workerPlan(O, S, Sel, Argv0, MayBuild, Answers);
    Results = runWorkers(Plan, Sel.Units, std::move(Answers.Found));
  }
  for (TUResult &R : Sel.Unusable)
    Results.push_back(std::move(R));
  return Results;
}

} // namespace torch_tidy
