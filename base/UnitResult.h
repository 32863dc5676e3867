//===--- UnitResult.h - what analysing one unit gave ------------*- C++ -*-===//
//
// The result of one translation unit: its diagnostics (clang-tidy's own
// type, notes and fixes included), the suppression counts, and the files it
// read. The engine makes it, a worker or the result cache hands it on
// (ResultFile), and the run merges the results of every unit.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_BASE_UNITRESULT_H
#define TORCH_TIDY_BASE_UNITRESULT_H

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang/Tooling/Core/Replacement.h"
#include "llvm/ADT/StringMap.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace torch_tidy {

struct TUResult {
  std::string MainFile;
  std::vector<clang::tidy::ClangTidyError> Errors;
  clang::tidy::ClangTidyStats Stats;
  /// A content hash of every user file as it was analysed, so that fixes are
  /// never applied to a file that changed since.
  std::map<std::string, std::string> ContentHashes;
  /// Every file the unit read, with its content hash, and every path it
  /// looked up in vain: what a cached result depends on.
  std::map<std::string, std::string> Dependencies;
  std::vector<std::string> AbsentPaths;
  /// What the functions of the unit return, as JSON text
  /// (--export-summaries); empty when not asked for.
  std::string Summaries;
  /// The function summaries the analysis looked up (found or not), when it
  /// ran with the project's summaries (analysis::RecordSummaryQueries), and
  /// a hash of what those summaries answered: the result stands for any
  /// summaries that answer the same.
  std::set<std::string> SummaryQueries;
  std::string SummaryAnswers;
  /// The worker failed (crashed, ran out of memory, could not start).
  bool Failed = false;
  std::string FailureMessage;

  bool hasCompilerErrors() const;

  /// A result that says only that \p File could not be analysed, and why.
  static TUResult failure(std::string File, std::string Why);
};

/// The files a fix changes, sorted (outputs list them in this order).
std::vector<std::string>
sortedFixFiles(const llvm::StringMap<clang::tooling::Replacements> &Fix);

} // namespace torch_tidy

#endif
