//===--- ProjectSummaries.h - stage 3 with the project's summaries -*- C++ -*-===//
//
// What functions of other units do, by default. A run over the whole
// project (-p, no files) analyses every unit once, and some again:
//
//   1. every unit, summarised and checked with the summaries the last run
//      left (none at first), recording what its analysis looked up in them
//      (RecordSummaryQueries);
//   2. the summaries of every unit merged into the project summaries file,
//      kept in the cache folder for the compilation database;
//   3. again, with those summaries, only the units whose queries they answer
//      otherwise than the summaries the unit had (and again, for at most
//      three rounds, while summaries so made change the answers): any
//      other unit's first result is its result.
//
// Both analyses go through the result cache, so a unit whose inputs (and,
// for the second, the answers to its queries) did not change is analysed
// neither time; a unit that changed is analysed first with what the last
// run found, which most often answers it as the new summaries do. An
// --export-summaries run over several files given with their flags (no -p)
// makes its summaries the same way, in a file kept only for the run. A run on
// files given with -p, and torch-clangd, read the file the last project run
// left. A FunctionSummaries option of the user's wins over all of it;
// --no-project-summaries turns it off.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_DRIVER_RUN_PROJECTSUMMARIES_H
#define TORCH_TIDY_DRIVER_RUN_PROJECTSUMMARIES_H

#include "base/UnitResult.h"
#include "driver/Options.h"
#include "driver/run/Setup.h"
#include "driver/run/Units.h"

#include <vector>

namespace torch_tidy {

/// Whether this run summarises its units first: a project run, or an
/// export of several files' summaries.
bool summarisesProject(const DriverOptions &Opts, RunSetup &Setup);

/// A run with -p that does not summarise the project itself: for files
/// given, names the summaries file the last project run left for the build
/// directory in \p Opts (ProjectSummaries), if there is one and no
/// FunctionSummaries option names another; with --verbose, says which
/// summaries the run uses (a project run's too).
void useLastProjectSummaries(DriverOptions &Opts, RunSetup &Setup);

/// Stage 3 of a project run that summarises the project first: the results
/// of every selected unit, in order, then those that could not be analysed.
/// False with \p Error when the summaries cannot be written.
bool analyseWithProjectSummaries(DriverOptions &Opts, RunSetup &Setup,
                                 UnitSelection &Selection, const char *Argv0,
                                 std::vector<TUResult> &Results,
                                 std::string &Error);

} // namespace torch_tidy

#endif
