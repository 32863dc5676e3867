//===--- Outputs.cpp - stages 4 and 6: findings, outputs ------------------===//

#include "driver/run/Outputs.h"

#include "base/AtomicWrite.h"
#include "checks/analysis/SummaryData.h"
#include "driver/report/Baseline.h"
#include "driver/report/ExportedFixes.h"
#include "driver/report/JsonReport.h"
#include "driver/report/Sarif.h"
#include "driver/report/TextReport.h"
#include "driver/run/Analyse.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

namespace torch_tidy {
namespace {

// The check pages: installed next to the binary, or in the source tree of a
// build that was not installed.
std::string docBase(const char *Argv0) {
  llvm::SmallString<256> Dir(selfExecutable(Argv0));
  llvm::sys::path::remove_filename(Dir);
  llvm::sys::path::append(Dir, "../share/doc/torch-tidy/checks");
  std::string Installed = SourceFiles::absolute(Dir);
  if (llvm::sys::fs::is_directory(Installed))
    return fileUri(Installed) + "/";
  return fileUri(TORCH_TIDY_SOURCE_DOC_DIR) + "/checks/";
}

/// \p Value as pretty-printed JSON and a line break.
template <class T> std::string jsonText(T &&Value) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  OS << llvm::formatv("{0:2}", llvm::json::Value(std::forward<T>(Value)))
     << "\n";
  OS.flush();
  return Text;
}

} // namespace

bool collectFindings(const DriverOptions &O,
                     const std::vector<TUResult> &Results,
                     const UnitSelection &Sel, RunFindings &Out,
                     std::string &Error) {
  Out.Root =
      O.SarifRoot.empty()
          ? repositoryRoot(O.Files.empty() ? O.BuildPath : O.Files.front())
          : SourceFiles::absolute(O.SarifRoot);
  Out.Findings = mergeFindings(Results, Sel.OnlyFiles, Out.Sources, Out.Root);
  computeFingerprints(Out.Findings, Out.Sources);
  if (!O.WriteBaseline.empty() &&
      !writeAtomically(O.WriteBaseline, baselineText(Out.Findings, Out.Sources),
                       Error))
    return false;
  if (!O.Baseline.empty()) {
    Baseline B;
    if (!readBaseline(O.Baseline, B, Error))
      return false;
    Out.Baselined = applyBaseline(Out.Findings, B);
  }
  return true;
}

/// --export-summaries: the summaries of every unit, merged. A unit that
/// could not be analysed adds none.
static bool exportSummaries(llvm::StringRef Path,
                            const std::vector<TUResult> &Results,
                            std::string &Error) {
  analysis::FunctionSummaries All;
  for (const TUResult &R : Results) {
    // What a unit not analysed does is not known: whether it trains too.
    if (R.Summaries.empty()) {
      All.addTraining(std::nullopt);
      continue;
    }
    llvm::Expected<llvm::json::Value> V = llvm::json::parse(R.Summaries);
    analysis::FunctionSummaries Unit;
    std::string Why;
    if (!V) {
      llvm::consumeError(V.takeError());
      Why = "not JSON";
    } else if (analysis::FunctionSummaries::fromJSON(*V, Unit, Why)) {
      All.merge(Unit);
      continue;
    }
    Error = "the summaries of " + R.MainFile + " are unreadable: " + Why;
    return false;
  }
  return writeAtomically(Path, jsonText(All.toJSON()), Error);
}

bool writeOutputs(const DriverOptions &O, RunSetup &S, RunFindings &Found,
                  const std::vector<int> &FixState,
                  const std::vector<TUResult> &Results, const char *Argv0,
                  std::string &Error) {
  if (O.Format == OutputFormat::Json) {
    llvm::outs() << jsonText(findingsToJSON(Found.Findings, Found.Sources));
    llvm::outs().flush();
  } else {
    bool Color = S.Context->getOptions().UseColor.value_or(
        llvm::sys::Process::StandardOutHasColors());
    printText(Found.Findings, FixState, Color);
  }
  if (!O.ExportFixes.empty() &&
      (!Found.Findings.empty() || O.ExportFixes != "-")) {
    std::string Main = Results.size() == 1
                           ? SourceFiles::absolute(Results.front().MainFile)
                           : "";
    if (!writeAtomically(O.ExportFixes, exportedFixesYaml(Found.Findings, Main),
                         Error))
      return false;
  }
  if (!O.ExportSarif.empty() &&
      !writeAtomically(O.ExportSarif,
                       jsonText(findingsToSarif(Found.Findings, Found.Sources,
                                                Found.Root, docBase(Argv0))),
                       Error))
    return false;
  if (!O.ExportSummaries.empty() &&
      !exportSummaries(O.ExportSummaries, Results, Error))
    return false;
  return true;
}

} // namespace torch_tidy
