//===--- Run.cpp - a check run over files or a whole project --------------===//
//
// The stages of a run, in order; each lives in the file named after it.
//
//   1. Setup    the inputs, clang-tidy's options, the compilation database,
//               the enabled checks (a worker process stops after 3.)
//   2. Units    which translation units to analyse
//   3. Analyse  each unit through the checks, here or in worker processes;
//               a project run summarises every unit first and checks again
//               the units those summaries answer something for
//               (ProjectSummaries)
//   4. Outputs  the findings merged, fingerprinted, filtered by a baseline
//   5. Fixes    what --fix would change, checked without writing
//   6. Outputs  text or JSON, --export-fixes, --export-sarif
//   7. Fixes    written, after the outputs read the files as they were
//   8. Summary  what happened, on stderr, and the exit code
//
//===----------------------------------------------------------------------===//

#include "driver/run/Run.h"

#include "driver/run/Analyse.h"
#include "driver/run/Fixes.h"
#include "driver/run/Outputs.h"
#include "driver/run/ProjectSummaries.h"
#include "driver/run/Setup.h"
#include "driver/run/Summary.h"
#include "driver/run/TestHooks.h"
#include "driver/run/Units.h"

namespace torch_tidy {

int runChecks(DriverOptions &O, const char *Argv0) {
  RunSetup Setup;
  int Exit = 0;
  if (!setUpRun(O, Setup, Exit))
    return Exit;
  if (!O.WorkerOutput.empty())
    return runAsWorker(O, Setup, Argv0);

  std::string Error;
  UnitSelection Selection;
  if (!selectUnits(O, Setup, Selection, Error))
    return fail(Error);
  std::vector<TUResult> Results;
  if (summarisesProject(O, Setup)) {
    if (!analyseWithProjectSummaries(O, Setup, Selection, Argv0, Results,
                                     Error))
      return fail(Error);
  } else {
    useLastProjectSummaries(O, Setup);
    Results = analyseUnits(O, Setup, Selection, Argv0);
  }

  RunFindings Found;
  if (!collectFindings(O, Results, Selection, Found, Error))
    return fail(Error);
  RunFixes Fixes = planFixes(O, Setup, Found.Findings, Found.Sources, Results);
  if (!writeOutputs(O, Setup, Found, Fixes.State, Results, Argv0, Error))
    return fail(Error);
  if (Fixes.Pending)
    testHook(TestHook::BeforeFixes);
  Fixes.write();
  return summarise(O, Results, Selection, Found, Fixes);
}

} // namespace torch_tidy
