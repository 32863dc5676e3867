//===--- Run.cpp - a check run over files or a whole project --------------===//
//
// Decides which translation units to analyse (files given, or every unit of
// the compilation database, minus those that cannot reach LibTorch, minus
// other shards), analyses them in this process or in workers, then merges,
// filters through the baseline, applies fixes and writes every output.
//
//===----------------------------------------------------------------------===//

#include "driver/Run.h"

#include "checks/CheckTable.h"
#include "driver/Baseline.h"
#include "driver/Engine.h"
#include "driver/Findings.h"
#include "driver/IncludeScan.h"
#include "driver/JsonReport.h"
#include "driver/ResultCache.h"
#include "driver/Sarif.h"
#include "driver/TextReport.h"
#include "driver/Workers.h"
#include "fixits/ApplyFixes.h"
#include "base/AtomicWrite.h"
#include "base/Hashing.h"
#include "base/ResultFile.h"

#include "clang-tidy/ClangTidy.h"
#include "clang/Tooling/DiagnosticsYaml.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/YAMLTraits.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <set>
#include <unistd.h>

using namespace clang;
using namespace clang::tidy;

namespace torch_tidy {
namespace {

int fail(const std::string &Message) {
  llvm::errs() << "torch-tidy: error: " << Message << "\n";
  return ExitToolFailure;
}

bool isHeaderName(llvm::StringRef Path) {
  llvm::StringRef Ext = llvm::sys::path::extension(Path);
  return Ext.empty() || Ext == ".h" || Ext == ".hh" || Ext == ".hpp" ||
         Ext == ".hxx" || Ext == ".cuh" || Ext == ".inl" || Ext == ".ipp" ||
         Ext == ".tcc";
}

std::string exportFixesYaml(const std::vector<Finding> &Findings,
                            llvm::StringRef MainFile) {
  tooling::TranslationUnitDiagnostics TUD;
  TUD.MainSourceFile = MainFile.str();
  for (const Finding &F : Findings) {
    tooling::Diagnostic D = F.Error;
    if (F.Error.IsWarningAsError)
      D.DiagLevel = tooling::Diagnostic::Error;
    TUD.Diagnostics.push_back(std::move(D));
  }
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  llvm::yaml::Output YAML(OS);
  YAML << TUD;
  OS.flush();
  return Text;
}

const llvm::StringMap<tooling::Replacements> *
chosenFix(const ClangTidyError &E, bool FromNotes) {
  if (!E.Message.Fix.empty())
    return &E.Message.Fix;
  if (!FromNotes)
    return nullptr;
  const llvm::StringMap<tooling::Replacements> *Found = nullptr;
  for (const tooling::DiagnosticMessage &N : E.Notes)
    if (!N.Fix.empty()) {
      if (Found)
        return nullptr; // two different fixes: none is chosen
      Found = &N.Fix;
    }
  return Found;
}

// The check pages: installed next to the binary, or in the source tree of a
// build that was not installed.
std::string docBase(const char *Argv0) {
  llvm::SmallString<256> Dir(llvm::sys::fs::getMainExecutable(
      Argv0, reinterpret_cast<void *>(&runChecks)));
  llvm::sys::path::remove_filename(Dir);
  llvm::sys::path::append(Dir, "../share/doc/torch-tidy/checks");
  std::string Installed = SourceFiles::absolute(Dir);
  if (llvm::sys::fs::is_directory(Installed))
    return fileUri(Installed) + "/";
  return fileUri(TORCH_TIDY_SOURCE_DOC_DIR) + "/checks/";
}

// A file with a NUL byte in its first 64 KiB is not source text: say so,
// rather than let clang print screens of garbage as diagnostics.
bool looksBinary(llvm::StringRef Path, size_t &NulOffset) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return false;
  NulOffset = (*Buffer)->getBuffer().take_front(65536).find('\0');
  return NulOffset != llvm::StringRef::npos;
}

// The .clang-tidy files that configure \p File, nearest first, parsed as
// clang-tidy parses them. clang-tidy reports a file it cannot parse and goes
// on without it, which would quietly run other checks than the user chose:
// here that is an error.
bool checkConfigFiles(llvm::StringRef File, std::set<std::string> &Checked,
                      std::string &Error) {
  llvm::SmallString<256> Dir(SourceFiles::absolute(File.str()));
  llvm::sys::path::remove_filename(Dir);
  for (; !Dir.empty(); Dir = llvm::sys::path::parent_path(Dir)) {
    llvm::SmallString<256> Config(Dir);
    llvm::sys::path::append(Config, ".clang-tidy");
    if (!Checked.insert(std::string(Config)).second)
      return true; // this file and the ones above it were checked already
    if (!llvm::sys::fs::is_regular_file(Config))
      continue;
    auto Text = llvm::MemoryBuffer::getFile(Config, /*IsText=*/true);
    if (!Text) {
      Error = "cannot read '" + Config.str().str() + "': " + Text.getError().message();
      return false;
    }
    std::string First;
    llvm::ErrorOr<ClangTidyOptions> Parsed = parseConfigurationWithDiags(
        (*Text)->getMemBufferRef(), [&](const llvm::SMDiagnostic &D) {
          if (First.empty() && D.getKind() == llvm::SourceMgr::DK_Error)
            First = llvm::formatv("{0}:{1}: {2}", D.getLineNo(),
                                  D.getColumnNo() + 1, D.getMessage()).str();
        });
    if (!Parsed) {
      Error = "invalid configuration in '" + Config.str().str() + "': " +
              (First.empty() ? Parsed.getError().message() : First);
      return false;
    }
    if (!Parsed->InheritParentConfig.value_or(false))
      return true;
  }
  return true;
}

// clang-tidy ignores a -checks glob that names no check, so a typo turns a
// check off without a word. Say which globs enable nothing.
void warnUnknownCheckGlobs(const ClangTidyOptions &Effective) {
  ClangTidyOptions All = Effective;
  All.Checks = "*";
  std::vector<std::string> Known = getCheckNames(All, false);
  llvm::SmallVector<llvm::StringRef, 8> Globs;
  std::string Checks = Effective.Checks.value_or("");
  llvm::StringRef(Checks).split(Globs, ',', -1, false);
  std::set<std::string> Warned;
  for (llvm::StringRef G : Globs) {
    G = G.trim();
    if (G.empty() || G.starts_with("-") || G.starts_with("clang-diagnostic-"))
      continue;
    std::string Pattern = "^";
    for (char C : G)
      Pattern += C == '*' ? std::string(".*") : llvm::Regex::escape(std::string(1, C));
    llvm::Regex R(Pattern + "$");
    if (llvm::any_of(Known, [&](const std::string &N) { return R.match(N); }))
      continue;
    if (Warned.insert(G.str()).second)
      llvm::errs() << "torch-tidy: warning: the check glob '" << G
                   << "' matches no check (see --list-checks)\n";
  }
}

} // namespace

int runChecks(DriverOptions &O, const char *Argv0) {
  // The inputs must exist and be files.
  for (const std::string &F : O.Files) {
    llvm::sys::fs::file_status S;
    if (std::error_code EC = llvm::sys::fs::status(F, S))
      return fail("cannot read '" + F + "': " + EC.message());
    if (llvm::sys::fs::is_directory(S))
      return fail("'" + F + "' is a directory, not a source file");
    if (llvm::sys::fs::access(F, llvm::sys::fs::AccessMode::Exist) ||
        !llvm::MemoryBuffer::getFile(F))
      return fail("cannot read '" + F + "'");
    size_t Nul = 0;
    if (looksBinary(F, Nul))
      return fail("'" + F + "' is not source text (a NUL byte at offset " +
                  std::to_string(Nul) + ")");
  }
  if (O.Files.empty() && O.BuildPath.empty() && O.WorkerOutput.empty())
    return fail("no input files; give source files, or -p BUILD_DIR to check "
                "every translation unit of its compile_commands.json");

  std::string Error, Warning;
  std::unique_ptr<ClangTidyOptionsProvider> Provider = makeOptionsProvider(O, Error);
  if (!Provider)
    return fail(Error);
  std::unique_ptr<tooling::CompilationDatabase> DB = loadCompilations(
      O, O.Files.empty() ? llvm::StringRef() : llvm::StringRef(O.Files.front()),
      Error, Warning);
  if (!DB)
    return fail(Error);
  if (!Warning.empty() && O.WorkerOutput.empty())
    llvm::errs() << "torch-tidy: warning: " << Warning << "\n";

  std::string FirstPath = SourceFiles::absolute(
      O.Files.empty() ? std::string("dummy") : O.Files.front());
  // A broken .clang-tidy is a configuration error, not a reason to run other
  // checks than the user chose.
  std::set<std::string> CheckedConfigs;
  bool CheckConfigs = !O.Config && !O.ConfigFile && O.WorkerOutput.empty();
  if (CheckConfigs) {
    if (!checkConfigFiles(FirstPath, CheckedConfigs, Error))
      return fail(Error);
    for (const std::string &F : O.Files)
      if (!checkConfigFiles(F, CheckedConfigs, Error))
        return fail(Error);
  }
  ClangTidyOptions Effective = Provider->getOptions(FirstPath);
  std::vector<std::string> Enabled = getCheckNames(Effective, false);
  if (O.WorkerOutput.empty())
    warnUnknownCheckGlobs(Effective);
  if (Enabled.empty()) {
    if (O.AllowNoChecks)
      return ExitClean;
    return fail("no checks enabled (see -checks and .clang-tidy)");
  }
  ClangTidyContext Context(std::move(Provider));

  // A worker analyses one unit and writes its result.
  if (!O.WorkerOutput.empty()) {
    if (O.Files.size() != 1)
      return fail("a worker takes exactly one file");
    // Fault injection, for the tests of how a failing worker is reported.
    if (const char *Fault = std::getenv("TORCH_TIDY_WORKER_FAULT"))
      if (*Fault && llvm::StringRef(O.Files.front()).contains(Fault))
        std::abort();
    TUResult R = runEngine(O, Context, *DB, O.Files.front(),
                           ResultCache::toolIdentity(Argv0, reinterpret_cast<void *>(&runChecks)));
    std::string Text;
    llvm::raw_string_ostream OS(Text);
    OS << toJSON(R);
    OS.flush();
    if (!writeAtomically(O.WorkerOutput, Text, Error))
      return fail(Error);
    return ExitClean;
  }

  // Which translation units, and which file each reports on.
  std::vector<std::string> Units;
  std::map<std::string, std::set<std::string>> OnlyFiles;
  std::set<std::string> GivenUnits;
  std::vector<std::string> DBFiles = DB->getAllFiles();
  for (std::string &F : DBFiles)
    F = SourceFiles::absolute(F);
  llvm::sort(DBFiles);
  DBFiles.erase(std::unique(DBFiles.begin(), DBFiles.end()), DBFiles.end());
  std::set<std::string> InDB(DBFiles.begin(), DBFiles.end());
  IncludeScanner Scanner;
  if (O.Files.empty()) {
    Units = DBFiles;
    if (Units.empty())
      return fail("the compilation database in " + O.BuildPath +
                  " lists no files");
  } else {
    for (const std::string &F : O.Files) {
      std::string Abs = SourceFiles::absolute(F);
      if (InDB.count(Abs) || !isHeaderName(Abs) || DBFiles.empty()) {
        Units.push_back(Abs);
        GivenUnits.insert(Abs);
        continue;
      }
      // A header: analyse a translation unit that includes it.
      std::string Unit;
      for (const std::string &TU : DBFiles) {
        for (const tooling::CompileCommand &C : DB->getCompileCommands(TU))
          if (Scanner.scan(C).Files.count(Abs)) {
            Unit = TU;
            break;
          }
        if (!Unit.empty())
          break;
      }
      if (Unit.empty()) {
        Units.push_back(Abs); // flags inferred from a neighbouring file
        continue;
      }
      Units.push_back(Unit);
      OnlyFiles[Unit].insert(Abs);
    }
    // A unit given itself reports as usual (main file and header filter),
    // plus the headers it was also chosen for.
    for (auto &[Unit, Headers] : OnlyFiles)
      if (GivenUnits.count(Unit))
        Headers.insert(Unit);
    std::set<std::string> Seen;
    Units.erase(std::remove_if(Units.begin(), Units.end(),
                               [&](const std::string &U) {
                                 return !Seen.insert(U).second;
                               }),
                Units.end());
  }

  if (O.ShardCount) {
    std::vector<std::string> Mine;
    for (size_t I = 0; I < Units.size(); ++I)
      if (I % O.ShardCount == O.ShardIndex)
        Mine.push_back(Units[I]);
    Units = std::move(Mine);
  }

  // The same for the units' own .clang-tidy files. A unit whose file or
  // working directory is gone fails alone.
  if (CheckConfigs)
    for (const std::string &U : Units)
      if (!checkConfigFiles(U, CheckedConfigs, Error))
        return fail(Error);
  std::vector<TUResult> Unusable;
  llvm::erase_if(Units, [&](const std::string &U) {
    std::string Why;
    if (!llvm::sys::fs::is_regular_file(U))
      Why = "listed in the compilation database, but there is no such file";
    else
      for (const tooling::CompileCommand &C : DB->getCompileCommands(U))
        if (!llvm::sys::fs::is_directory(C.Directory)) {
          Why = "the compilation database runs its command in '" +
                C.Directory + "', which does not exist";
          break;
        }
    if (Why.empty())
      return false;
    TUResult R;
    R.MainFile = U;
    R.Failed = true;
    R.FailureMessage = Why;
    Unusable.push_back(std::move(R));
    return true;
  });

  // Units that cannot reach LibTorch cannot hold a torch-* finding.
  unsigned Skipped = 0;
  bool OnlyTorchChecks = llvm::all_of(
      Enabled, [](const std::string &C) { return findCheck(C) != nullptr; });
  if (O.SkipTorchlessTUs && OnlyTorchChecks && !O.HasFixedFlags) {
    std::vector<std::string> Kept;
    for (const std::string &U : Units) {
      bool Reaches = false;
      std::vector<tooling::CompileCommand> Cmds = DB->getCompileCommands(U);
      if (Cmds.empty())
        Reaches = true;
      for (const tooling::CompileCommand &C : Cmds)
        Reaches |= Scanner.scan(C).MayReachTorch;
      if (Reaches)
        Kept.push_back(U);
      else
        ++Skipped;
    }
    Units = std::move(Kept);
  }

  // Analyse.
  std::vector<TUResult> Results;
  // One file without project flags is an editor's or a script's single-file
  // run: clang-tidy's output, in this process.
  bool ProjectStyle = O.Files.size() != 1 || !O.ProjectFlag.empty();
  bool InProcess = Units.size() == 1 && O.ProjectFlag.empty() &&
                   OnlyFiles.empty();
  // A preamble pays off when the same file is checked again after an edit
  // (an editor, a hook on one file); a run over many units, often a cold CI
  // run, only reuses the preambles it finds.
  O.BuildPreambles = O.BuildPreambles && Units.size() == 1;
  if (InProcess) {
    Results.push_back(runEngine(
        O, Context, *DB, Units.front(),
        ResultCache::toolIdentity(Argv0, reinterpret_cast<void *>(&runChecks))));
  } else if (!Units.empty()) {
    WorkerPlan Plan;
    Plan.Executable = llvm::sys::fs::getMainExecutable(
        Argv0, reinterpret_cast<void *>(&runChecks));
    Plan.CommonArgs = O.ForwardArgs;
    if (!O.BuildPath.empty())
      Plan.CommonArgs.push_back("-p=" + O.BuildPath);
    if (O.FixNotes)
      Plan.CommonArgs.push_back("--fix-notes");
    if (!O.SkipSystemBodies)
      Plan.CommonArgs.push_back("--no-skip-system-bodies");
    if (!O.TraversalScope)
      Plan.CommonArgs.push_back("--no-traversal-scope");
    if (!O.UseCache)
      Plan.CommonArgs.push_back("--no-cache");
    if (!O.UsePreamble)
      Plan.CommonArgs.push_back("--no-preamble-cache");
    if (!O.BuildPreambles)
      Plan.CommonArgs.push_back("--torch-tidy-reuse-preambles");
    if (!O.CacheDir.empty())
      Plan.CommonArgs.push_back("--cache-dir=" + O.CacheDir);
    if (O.HasFixedFlags) {
      Plan.TrailingArgs.push_back("--");
      Plan.TrailingArgs.insert(Plan.TrailingArgs.end(), O.FixedFlags.begin(),
                               O.FixedFlags.end());
    }
    Plan.Jobs = O.Jobs ? O.Jobs
                       : std::max(1u, llvm::hardware_concurrency()
                                          .compute_thread_count());
    Plan.ShowProgress = O.Progress == "always" ||
                        (O.Progress == "auto" && ::isatty(2));
    // A header given on the command line is reported whatever the header
    // filter says.
    for (const auto &[Unit, Files] : OnlyFiles) {
      std::string Filter =
          Context.getOptionsForFile(Unit).HeaderFilterRegex.value_or("");
      for (const std::string &F : Files)
        if (F != Unit)
          Filter = (Filter.empty() ? "" : "(" + Filter + ")|") + "(^|/)" +
                   llvm::Regex::escape(llvm::sys::path::filename(F)) + "$";
      Plan.UnitArgs[Unit].push_back("--header-filter=" + Filter);
    }
    Results = runWorkers(Plan, Units);
  }
  for (TUResult &R : Unusable)
    Results.push_back(std::move(R));

  // Merge and report.
  std::string Root = O.SarifRoot.empty()
                         ? repositoryRoot(O.Files.empty() ? O.BuildPath : O.Files.front())
                         : SourceFiles::absolute(O.SarifRoot);
  SourceFiles Sources;
  std::vector<Finding> Findings = mergeFindings(Results, OnlyFiles, Sources, Root);
  computeFingerprints(Findings, Sources);

  int Exit = ExitClean;
  if (!O.WriteBaseline.empty()) {
    if (!writeAtomically(O.WriteBaseline, baselineText(Findings, Sources), Error))
      return fail(Error);
  }
  unsigned Baselined = 0;
  if (!O.Baseline.empty()) {
    Baseline B;
    if (!readBaseline(O.Baseline, B, Error))
      return fail(Error);
    Baselined = applyBaseline(Findings, B);
  }

  bool CompilerErrors = false;
  for (const TUResult &R : Results)
    CompilerErrors |= R.hasCompilerErrors();

  // Fixes.
  std::vector<int> FixState;
  FixReport Fixes;
  std::function<FixReport()> PendingFixes;
  bool DisableFixes = CompilerErrors && !O.FixErrors;
  if (O.fixRequested() && !DisableFixes) {
    std::vector<FixRequest> Requests;
    for (const Finding &F : Findings) {
      FixRequest Req;
      if (const auto *Fix = chosenFix(F.Error, O.FixNotes))
        for (const auto &E : *Fix)
          for (const tooling::Replacement &R : E.getValue())
            if (R.isApplicable())
              Req.Replacements.push_back(R);
      LineColumn P = Sources.position(F.Error.Message.FilePath,
                                      F.Error.Message.FileOffset);
      Req.Description = llvm::formatv("{0}:{1}: {2}", F.Error.Message.FilePath,
                                      P.Line, F.Error.DiagnosticName);
      Requests.push_back(std::move(Req));
    }
    ApplyOptions AO;
    for (const TUResult &R : Results)
      for (const auto &H : R.ContentHashes)
        AO.ExpectedHashes[SourceFiles::absolute(H.first)] = H.second;
    AO.CurrentHash = [](llvm::StringRef P) { return fileHash(P); };
    AO.FormatStyle = [&Context](llvm::StringRef P) {
      return Context.getOptionsForFile(P).FormatStyle.value_or("none");
    };
    // Outcomes first: the reports below read the files as they were.
    AO.Write = false;
    Fixes = applyFixes(Requests, AO);
    AO.Write = true;
    PendingFixes = [Requests = std::move(Requests), AO]() {
      return applyFixes(Requests, AO);
    };
    for (FixOutcome Out : Fixes.Outcomes)
      FixState.push_back(Out == FixOutcome::NoFix    ? 0
                         : Out == FixOutcome::Applied ? 1
                                                      : -1);
  }

  // Outputs.
  if (O.Format == OutputFormat::Json) {
    llvm::outs() << llvm::formatv("{0:2}",
                                  llvm::json::Value(findingsToJSON(Findings, Sources)))
                 << "\n";
    llvm::outs().flush();
  } else {
    bool Color = Context.getOptions().UseColor.value_or(
        llvm::sys::Process::StandardOutHasColors());
    printText(Findings, FixState, Color);
  }
  if (!O.ExportFixes.empty() && (!Findings.empty() || O.ExportFixes != "-")) {
    std::string Main = Results.size() == 1 ? SourceFiles::absolute(Results.front().MainFile) : "";
    if (!writeAtomically(O.ExportFixes, exportFixesYaml(Findings, Main), Error))
      return fail(Error);
  }
  if (!O.ExportSarif.empty()) {
    std::string Text;
    llvm::raw_string_ostream OS(Text);
    OS << llvm::formatv("{0:2}", findingsToSarif(Findings, Sources, Root, docBase(Argv0)))
       << "\n";
    OS.flush();
    if (!writeAtomically(O.ExportSarif, Text, Error))
      return fail(Error);
  }

  // Test hook: a command run after the analysis and just before the fixes
  // are written, so that a test can change a file in between. It changes
  // nothing by itself.
  if (PendingFixes)
    if (const char *Hook = std::getenv("TORCH_TIDY_TEST_BEFORE_FIX"))
      if (*Hook && std::system(Hook) != 0)
        llvm::errs() << "torch-tidy: warning: TORCH_TIDY_TEST_BEFORE_FIX failed\n";
  if (PendingFixes)
    Fixes = PendingFixes();

  // Summary and exit code.
  ClangTidyStats Stats;
  for (const TUResult &R : Results) {
    Stats.ErrorsIgnoredCheckFilter += R.Stats.ErrorsIgnoredCheckFilter;
    Stats.ErrorsIgnoredNOLINT += R.Stats.ErrorsIgnoredNOLINT;
    Stats.ErrorsIgnoredNonUserCode += R.Stats.ErrorsIgnoredNonUserCode;
    Stats.ErrorsIgnoredLineFilter += R.Stats.ErrorsIgnoredLineFilter;
  }
  for (const std::string &W : Fixes.Warnings)
    llvm::errs() << "torch-tidy: warning: " << W << "\n";
  for (const std::string &E : Fixes.Errors) {
    llvm::errs() << "torch-tidy: error: " << E << "\n";
    Exit = ExitToolFailure;
  }
  unsigned Failed = 0;
  for (const TUResult &R : Results)
    if (R.Failed) {
      ++Failed;
      llvm::errs() << "torch-tidy: error: " << R.MainFile << ": "
                   << R.FailureMessage << "\n";
    }
  if (!O.Quiet) {
    if (O.Format == OutputFormat::Text)
      printSuppressionStats(Stats);
    if (O.fixRequested() && !DisableFixes && Fixes.TotalFixes)
      llvm::errs() << "torch-tidy applied " << Fixes.AppliedFixes << " of "
                   << Fixes.TotalFixes << " suggested fixes.\n";
    if (DisableFixes && O.fixRequested())
      llvm::errs() << "Found compiler errors, but -fix-errors was not "
                      "specified.\nFixes have NOT been applied.\n\n";
    if (ProjectStyle)
      llvm::errs() << llvm::formatv(
          "torch-tidy: {0} translation unit{1} checked, {2} skipped (no "
          "LibTorch include reached), {3} failed; {4} finding{5}{6}\n",
          Results.size(), Results.size() == 1 ? "" : "s", Skipped, Failed,
          Findings.size(), Findings.size() == 1 ? "" : "s",
          O.Baseline.empty() ? std::string()
                             : llvm::formatv(" ({0} in the baseline not shown)",
                                             Baselined)
                                   .str());
  }
  unsigned AsErrors = 0;
  for (const Finding &F : Findings)
    AsErrors += F.Error.IsWarningAsError;
  if (AsErrors && !O.Quiet)
    llvm::errs() << AsErrors << " warning" << (AsErrors == 1 ? "" : "s")
                 << " treated as error" << (AsErrors == 1 ? "" : "s") << "\n";
  if (Failed || CompilerErrors) {
    if (CompilerErrors && !O.Quiet)
      llvm::errs() << "Found compiler error(s).\n";
    return ExitToolFailure;
  }
  if (Exit != ExitClean)
    return Exit;
  return AsErrors ? ExitFindings : ExitClean;
}

} // namespace torch_tidy
