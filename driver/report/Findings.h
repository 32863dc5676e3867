//===--- Findings.h - the diagnostics of a run, merged ----------*- C++ -*-===//
//
// The diagnostics of every translation unit of a run in one list: paths made
// absolute, a diagnostic reported by several translation units (in a shared
// header) kept once, in a deterministic order, each with a fingerprint that
// survives code moving up or down.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_DRIVER_REPORT_FINDINGS_H
#define TORCH_TIDY_DRIVER_REPORT_FINDINGS_H

#include "base/UnitResult.h"
#include "driver/report/SourceFiles.h"

#include <set>

namespace torch_tidy {

struct Finding {
  clang::tidy::ClangTidyError Error;
  std::string Fingerprint; // stable identity for baselines and SARIF
  std::string RelativePath; // of the main location, from the root
};

/// How severe a finding is. Every output format (JSON, SARIF) takes it from
/// severityOf, and names it in its own words.
enum class Severity { Error, Warning, Remark };

/// An error when the compiler or --warnings-as-errors says so, else the
/// diagnostic's own level.
Severity severityOf(const Finding &F);

/// The words of one output format for each severity.
struct SeverityNames {
  const char *Error, *Warning, *Remark;
};
const char *severityName(const Finding &F, const SeverityNames &Names);

/// Merges the results of a run, in order; \p OnlyFiles maps a translation
/// unit that was analysed for the sake of headers to the files whose
/// diagnostics it should report.
std::vector<Finding> mergeFindings(const std::vector<TUResult> &Results,
                                   const std::map<std::string, std::set<std::string>> &OnlyFiles,
                                   SourceFiles &Sources, llvm::StringRef Root);

/// The repository root of \p Path: the nearest directory above it with a
/// .git entry, else the current directory.
std::string repositoryRoot(llvm::StringRef Path);

/// \p Path relative to \p Root, with '/' separators; unchanged when outside.
std::string relativeTo(llvm::StringRef Path, llvm::StringRef Root);

/// Fills in fingerprints: check, file, the normalised text of the line and
/// of its neighbours, and the index among findings sharing all of those.
void computeFingerprints(std::vector<Finding> &Findings, SourceFiles &Sources);

} // namespace torch_tidy

#endif
