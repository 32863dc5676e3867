//===--- Options.h - torch-tidy's command line ------------------*- C++ -*-===//
//
// The command line of a torch-tidy run: clang-tidy's flags (the ones that
// shape a check run) plus the project-level ones (-j, output formats,
// baselines, shards, caches). clang-tidy registers its flags as global
// llvm::cl options, so this parser is separate and hand-written. One table
// in Options.cpp says, for every flag, how it is parsed, how a worker is
// told about it, and what --help says of it.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_DRIVER_OPTIONS_H
#define TORCH_TIDY_DRIVER_OPTIONS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace torch_tidy {

enum class OutputFormat { Text, Json };

/// The checks a run enables when neither -checks nor a .clang-tidy names
/// any (clang-tidy's own default).
extern const char DefaultChecks[];

struct DriverOptions {
  // clang-tidy's flags.
  std::optional<std::string> Checks, WarningsAsErrors, HeaderFilter,
      ExcludeHeaderFilter, FormatStyle, Config, ConfigFile, LineFilter;
  std::optional<bool> SystemHeaders, UseColor;
  bool Fix = false, FixErrors = false, FixNotes = false, Quiet = false;
  bool AllowNoChecks = false;
  std::string ExportFixes; // "" = none, "-" = stdout
  std::string BuildPath;   // -p
  std::vector<std::string> ExtraArgs, ExtraArgsBefore;
  std::vector<std::string> Files; // positional
  bool HasFixedFlags = false;     // a "--" was given
  std::vector<std::string> FixedFlags;

  // Project-level flags.
  unsigned Jobs = 0; // 0 = all cores
  OutputFormat Format = OutputFormat::Text;
  std::string ExportSarif, SarifRoot;
  std::string Baseline, WriteBaseline;
  /// --export-summaries: where to write what the units' functions return.
  std::string ExportSummaries;
  /// Summarise each unit's functions (set by --export-summaries; a worker is
  /// told --torch-tidy-collect-summaries).
  bool CollectSummaries = false;
  /// A project run summarises every unit first and checks them with what
  /// it found; a run on files given with -p reads what the last project run
  /// left. --no-project-summaries turns both off.
  bool UseProjectSummaries = true;
  /// --verbose: say which function summaries a run used.
  bool Verbose = false;
  unsigned ShardIndex = 0, ShardCount = 0; // --shard=K/N: K-1, N
  std::string Progress = "auto";           // auto, always, never
  bool SkipTorchlessTUs = true;
  /// Go on past compiler errors: no error limit, and a missing #include is
  /// an error rather than a fatal one, so that the rest of the unit (the
  /// code that does not depend on it) is still analysed.
  /// --no-error-recovery restores clang-tidy's behaviour.
  bool ErrorRecovery = true;

  // Speed-ups, each on by default and with a flag to turn it off.
  bool SkipSystemBodies = true;
  bool TraversalScope = true;
  bool UseCache = true;
  bool UsePreamble = true;
  /// Build missing preambles (else only reuse them): set when the run
  /// checks one unit. The workers of a larger run are told
  /// --torch-tidy-reuse-preambles, and the one that builds the preamble of
  /// units sharing it --torch-tidy-build-preambles too.
  bool BuildPreambles = true;
  std::string CacheDir;

  // Internal: this process is a worker writing its result here.
  std::string WorkerOutput;
  /// Internal: the run that started this worker found no cached result for
  /// its unit (--torch-tidy-cache-missed); the worker analyses it without
  /// looking again.
  bool ResultCacheMissed = false;
  /// Internal: the first stage of a project run (--torch-tidy-first-stage):
  /// the unit is summarised and analysed with empty summaries, recording
  /// what it looks up in them.
  bool FirstStage = false;
  /// Internal: the project summaries file the unit is analysed with
  /// (--torch-tidy-project-summaries=FILE), unless a FunctionSummaries
  /// option names another.
  std::string ProjectSummaries;
  /// Internal: which round of a project run analyses the unit with them
  /// (--torch-tidy-round=N; 0 outside project runs), so that the result
  /// cache keeps one result per round.
  unsigned SummariesRound = 0;

  // A flag the engine does not handle itself (informational or rare ones):
  // the run is handed to clang-tidy's own main.
  std::string NeedsClangTidyMain;
  // A project-level flag was given (the run cannot be handed over).
  std::string ProjectFlag;

  bool fixRequested() const { return Fix || FixErrors || FixNotes; }
};

/// Parses argv (without argv[0]). Returns false and sets \p Error on a bad
/// command line.
bool parseCommandLine(llvm::ArrayRef<const char *> Args, DriverOptions &Opts,
                      std::string &Error);

/// The flags that give a worker the same check run as \p Opts (everything
/// but the file, the result path and the flags after "--").
std::vector<std::string> workerArguments(const DriverOptions &Opts);

/// One entry of --help: how it is written, and what it does (lines
/// separated by '\n').
using HelpEntry = std::pair<const char *, const char *>;

/// The text of --help for the flags torch-tidy adds to clang-tidy's, then
/// \p Subcommands.
void printProjectHelp(llvm::raw_ostream &OS,
                      llvm::ArrayRef<HelpEntry> Subcommands);

} // namespace torch_tidy

#endif
