//===--- Summary.cpp - stage 8: summary and exit code ---------------------===//

#include "driver/run/Summary.h"

#include "driver/ExitCodes.h"
#include "driver/report/TextReport.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

namespace torch_tidy {
namespace {

clang::tidy::ClangTidyStats totalStats(const std::vector<TUResult> &Results) {
  clang::tidy::ClangTidyStats Stats;
  for (const TUResult &R : Results) {
    Stats.ErrorsIgnoredCheckFilter += R.Stats.ErrorsIgnoredCheckFilter;
    Stats.ErrorsIgnoredNOLINT += R.Stats.ErrorsIgnoredNOLINT;
    Stats.ErrorsIgnoredNonUserCode += R.Stats.ErrorsIgnoredNonUserCode;
    Stats.ErrorsIgnoredLineFilter += R.Stats.ErrorsIgnoredLineFilter;
  }
  return Stats;
}

/// "torch-tidy: 3 translation units checked, ...; 2 findings".
std::string countsLine(const DriverOptions &O, size_t Units, unsigned Skipped,
                       unsigned Failed, const RunFindings &Found) {
  size_t N = Found.Findings.size();
  return llvm::formatv(
      "torch-tidy: {0} translation unit{1} checked, {2} skipped (no "
      "LibTorch include reached), {3} failed; {4} finding{5}{6}\n",
      Units, Units == 1 ? "" : "s", Skipped, Failed, N, N == 1 ? "" : "s",
      O.Baseline.empty()
          ? std::string()
          : llvm::formatv(" ({0} in the baseline not shown)", Found.Baselined)
                .str());
}

} // namespace

int summarise(const DriverOptions &O, const std::vector<TUResult> &Results,
              const UnitSelection &Sel, const RunFindings &Found,
              const RunFixes &Fixes) {
  llvm::raw_ostream &Err = llvm::errs();
  for (const std::string &W : Fixes.Report.Warnings)
    Err << "torch-tidy: warning: " << W << "\n";
  for (const std::string &E : Fixes.Report.Errors)
    Err << "torch-tidy: error: " << E << "\n";
  unsigned Failed = 0;
  for (const TUResult &R : Results)
    if (R.Failed) {
      ++Failed;
      Err << "torch-tidy: error: " << R.MainFile << ": " << R.FailureMessage
          << "\n";
    }
  // One file without project flags is an editor's or a script's single-file
  // run: clang-tidy's output, without the counts.
  bool ProjectStyle = O.Files.size() != 1 || !O.ProjectFlag.empty();
  if (!O.Quiet) {
    if (O.Format == OutputFormat::Text)
      printSuppressionStats(totalStats(Results));
    if (Fixes.Pending && Fixes.Report.TotalFixes)
      Err << "torch-tidy applied " << Fixes.Report.AppliedFixes << " of "
          << Fixes.Report.TotalFixes << " suggested fixes.\n";
    if (Fixes.Disabled && O.fixRequested())
      Err << "Found compiler errors, but -fix-errors was not specified.\n"
             "Fixes have NOT been applied.\n\n";
    if (ProjectStyle)
      Err << countsLine(O, Results.size(), Sel.Skipped, Failed, Found);
  }
  unsigned AsErrors = 0;
  for (const Finding &F : Found.Findings)
    AsErrors += F.Error.IsWarningAsError;
  if (AsErrors && !O.Quiet)
    Err << AsErrors << " warning" << (AsErrors == 1 ? "" : "s")
        << " treated as error" << (AsErrors == 1 ? "" : "s") << "\n";
  bool CompilerErrors = llvm::any_of(
      Results, [](const TUResult &R) { return R.hasCompilerErrors(); });
  if (Failed || CompilerErrors) {
    if (CompilerErrors && !O.Quiet)
      Err << "Found compiler error(s).\n";
    return ExitToolFailure;
  }
  if (!Fixes.Report.Errors.empty())
    return ExitToolFailure;
  return AsErrors ? ExitFindings : ExitClean;
}

} // namespace torch_tidy
