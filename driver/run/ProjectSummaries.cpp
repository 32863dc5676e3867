//===--- ProjectSummaries.cpp - stage 3 with the project's summaries ------===//

#include "driver/run/ProjectSummaries.h"

#include "base/AtomicWrite.h"
#include "base/CacheFolder.h"
#include "checks/analysis/ProjectSummaries.h"
#include "driver/engine/Engine.h"
#include "driver/report/SourceFiles.h"
#include "driver/run/Analyse.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <set>

using namespace clang::tidy;

namespace torch_tidy {
namespace {

/// Whether \p Options name a summaries file: the global FunctionSummaries
/// option, or a check's.
bool namesSummaries(const ClangTidyOptions &Options) {
  for (const auto &Entry : Options.CheckOptions) {
    llvm::StringRef Key = Entry.getKey();
    if ((Key == "FunctionSummaries" || Key.ends_with(".FunctionSummaries")) &&
        !Entry.getValue().Value.empty())
      return true;
  }
  return false;
}

bool userNamesSummaries(const DriverOptions &O, RunSetup &S) {
  std::string First = SourceFiles::absolute(
      O.Files.empty() ? std::string("dummy") : O.Files.front());
  return namesSummaries(S.Context->getOptionsForFile(First));
}

/// The compilation database file of -p: what the summaries are kept by.
std::string databaseFile(const DriverOptions &O) {
  llvm::SmallString<256> Json(O.BuildPath), Flags(O.BuildPath);
  llvm::sys::path::append(Json, "compile_commands.json");
  llvm::sys::path::append(Flags, "compile_flags.txt");
  return SourceFiles::absolute(
      std::string(llvm::sys::fs::exists(Json) ? Json : Flags));
}

std::string keptSummariesFile(const DriverOptions &O) {
  return analysis::projectSummariesFile(cacheFolder(O.CacheDir),
                                        databaseFile(O));
}

/// "a.cpp, b.cpp", at most \p Max names.
std::string listOf(const std::vector<std::string> &Files, size_t Max = 5) {
  std::string Text;
  for (size_t I = 0; I < Files.size() && I < Max; ++I)
    Text += (I ? ", " : "") + Files[I];
  if (Files.size() > Max)
    Text += ", ...";
  return Text;
}

/// The merged summaries of stage 1 as a project summaries file's text.
std::string summariesText(const DriverOptions &O,
                          const std::vector<TUResult> &Results,
                          unsigned &Units) {
  std::vector<analysis::UnitSummaries> All;
  std::map<std::string, std::string> Hashes; // each header hashed once
  bool SomeNotAnalysed = false;
  for (const TUResult &R : Results) {
    if (R.Failed || R.Summaries.empty()) {
      SomeNotAnalysed = true;
      continue;
    }
    llvm::Expected<llvm::json::Value> V = llvm::json::parse(R.Summaries);
    analysis::UnitSummaries U;
    std::string Why;
    if (!V) {
      llvm::consumeError(V.takeError());
      continue;
    }
    if (!analysis::FunctionSummaries::fromJSON(*V, U.Summaries, Why))
      continue;
    U.File = SourceFiles::absolute(R.MainFile);
    U.Hash = analysis::sourceHash(U.File);
    // The other files of the user's the unit read: an edit of one may
    // change what the unit's functions do.
    for (const auto &Entry : R.ContentHashes) {
      std::string Header = SourceFiles::absolute(Entry.first);
      if (Header == U.File)
        continue;
      auto Known = Hashes.find(Header);
      if (Known == Hashes.end())
        Known = Hashes.emplace(Header, analysis::sourceHash(Header)).first;
      U.Headers[Header] = Known->second;
    }
    All.push_back(std::move(U));
  }
  // What a unit not analysed does is not known: whether it trains too.
  if (SomeNotAnalysed && !All.empty())
    All.front().Summaries.addTraining(std::nullopt);
  Units = All.size();
  return analysis::projectSummariesText(databaseFile(O), All);
}

} // namespace

/// Whether the run exports the summaries of several files it is given
/// with no compilation database (their flags after `--`): they are made as
/// a project run makes its own, so that what one unit's summary says of a
/// call into another (what is done there with what it returns, with what
/// it is handed) is what that unit's summary says. With -p, files given
/// read the last project run's summaries instead.
static bool exportsSummariesOfFiles(const DriverOptions &O) {
  return !O.ExportSummaries.empty() && O.Files.size() > 1 &&
         O.BuildPath.empty();
}

bool summarisesProject(const DriverOptions &O, RunSetup &S) {
  return O.UseProjectSummaries && O.WorkerOutput.empty() &&
         ((O.Files.empty() && !O.BuildPath.empty()) ||
          exportsSummariesOfFiles(O)) &&
         !userNamesSummaries(O, S);
}

void useLastProjectSummaries(DriverOptions &O, RunSetup &S) {
  if (O.BuildPath.empty() || !O.WorkerOutput.empty())
    return;
  llvm::raw_ostream &Err = llvm::errs();
  if (!O.UseProjectSummaries) {
    if (O.Verbose)
      Err << "torch-tidy: function summaries: none (--no-project-summaries)\n";
    return;
  }
  if (userNamesSummaries(O, S)) {
    if (O.Verbose)
      Err << "torch-tidy: function summaries: those the FunctionSummaries "
             "option names\n";
    return;
  }
  if (O.Files.empty())
    return; // a project run that makes its own
  std::string File = keptSummariesFile(O);
  if (!llvm::sys::fs::exists(File)) {
    if (O.Verbose)
      Err << "torch-tidy: function summaries: none; no project run over "
          << databaseFile(O) << " has left any (run torch-tidy -p "
          << O.BuildPath << " with no files)\n";
    return;
  }
  std::string Error;
  std::shared_ptr<const analysis::ProjectSummaries> P =
      analysis::loadProjectSummaries(File, Error);
  if (!P) {
    Err << "torch-tidy: warning: " << Error << "; running without them\n";
    return;
  }
  O.ProjectSummaries = File;
  if (!O.Verbose)
    return;
  Err << "torch-tidy: function summaries: the last project run's over "
      << P->Database << " (" << File << "): " << (P->Units - P->Changed.size())
      << " of " << P->Units << " units";
  if (!P->Changed.empty())
    Err << "; left out, changed since: " << listOf(P->Changed);
  Err << "\n";
}

bool analyseWithProjectSummaries(DriverOptions &O, RunSetup &S,
                                 UnitSelection &Sel, const char *Argv0,
                                 std::vector<TUResult> &Results,
                                 std::string &Error) {
  // 1. Every unit of the project, this shard's or not: the summaries must
  // be the same whatever part of the project a run checks.
  UnitSelection All;
  if (O.ShardCount) {
    DriverOptions Whole = O;
    Whole.ShardCount = 0;
    Whole.ShardIndex = 0;
    if (!selectUnits(Whole, S, All, Error))
      return false;
    All.Unusable.clear();
  } else {
    All.Units = Sel.Units;
    All.OnlyFiles = Sel.OnlyFiles;
  }
  // Kept for the runs after this one (with --no-cache, or for files given,
  // only for this run).
  std::string File;
  bool Temporary = !O.UseCache || !O.Files.empty();
  DriverOptions First = O;
  First.FirstStage = true;
  First.CollectSummaries = true;
  if (!Temporary) {
    // A unit analysed anew is analysed with what the last run found (what
    // of it still holds): after an edit, what the summaries answer it is
    // most often the same, and it need not be analysed again.
    File = keptSummariesFile(O);
    std::string Ignored;
    if (llvm::sys::fs::exists(File) &&
        analysis::loadProjectSummaries(File, Ignored))
      First.ProjectSummaries = File;
  }
  std::vector<TUResult> Current = analyseUnits(First, S, All, Argv0);
  Current.resize(All.Units.size());

  if (Temporary) {
    llvm::SmallString<128> Path;
    if (std::error_code EC = llvm::sys::fs::createTemporaryFile(
            "torch-tidy-summaries", "json", Path)) {
      Error = "cannot create a temporary file: " + EC.message();
      return false;
    }
    File = std::string(Path);
  } else {
    llvm::sys::fs::create_directories(llvm::sys::path::parent_path(File));
  }

  // 2. Merged; 3. the units whose analysis they answer otherwise than the
  // summaries it had, analysed again with them (and summarised again: what
  // they pass may change), until none is, or for a few rounds at most.
  constexpr unsigned MaxRounds = 3;
  unsigned Units = 0, Rounds = 0;
  std::set<std::string> Again;
  for (unsigned Round = 1;; ++Round) {
    if (!writeAtomically(File, summariesText(O, Current, Units), Error))
      return false;
    std::shared_ptr<const analysis::ProjectSummaries> Project =
        analysis::loadProjectSummaries(File, Error);
    if (!Project)
      return false;
    UnitSelection Stale;
    std::vector<size_t> StaleAt;
    for (size_t I = 0; I < All.Units.size(); ++I) {
      const TUResult &R = Current[I];
      if (R.Failed || R.hasCompilerErrors() ||
          resultHolds(R, Project->Summaries.get()))
        continue;
      Stale.Units.push_back(All.Units[I]);
      StaleAt.push_back(I);
    }
    if (Stale.Units.empty() || Round > MaxRounds)
      break;
    if (O.Verbose)
      llvm::errs() << "torch-tidy: function summaries: round " << Round
                   << " checks again " << listOf(Stale.Units) << "\n";
    DriverOptions Next = O;
    // In workers, as the first stage's: a round prints what a project run
    // prints, whatever the number of units it analyses again.
    Next.ProjectFlag = "--torch-tidy-round";
    Next.ProjectSummaries = File;
    Next.CollectSummaries = true;
    Next.SummariesRound = Round;
    std::vector<TUResult> Checked = analyseUnits(Next, S, Stale, Argv0);
    // A unit whose second analysis failed is reported as failed.
    for (size_t I = 0; I < StaleAt.size() && I < Checked.size(); ++I) {
      Again.insert(All.Units[StaleAt[I]]);
      Current[StaleAt[I]] = std::move(Checked[I]);
    }
    Rounds = Round;
  }

  std::map<std::string, size_t> ByUnit;
  for (size_t I = 0; I < All.Units.size(); ++I)
    ByUnit.emplace(All.Units[I], I);
  Results.clear();
  unsigned CheckedAgain = 0;
  for (const std::string &Unit : Sel.Units) {
    auto It = ByUnit.find(Unit);
    Results.push_back(It == ByUnit.end()
                          ? TUResult::failure(Unit, "it was not summarised")
                          : std::move(Current[It->second]));
    CheckedAgain += Again.count(Unit);
  }
  for (TUResult &R : Sel.Unusable)
    Results.push_back(std::move(R));
  Sel.Unusable.clear();
  if (Temporary)
    llvm::sys::fs::remove(File);

  if (O.Verbose)
    llvm::errs() << "torch-tidy: function summaries: " << Units
                 << " units summarised, kept in "
                 << (Temporary ? std::string(O.UseCache ? "no file (files given)"
                                                        : "no file (--no-cache)")
                               : File)
                 << "; " << CheckedAgain << " of " << Sel.Units.size()
                 << " units checked again with them (" << Rounds << " round"
                 << (Rounds == 1 ? "" : "s") << ")\n";
  return true;
}

} // namespace torch_tidy
