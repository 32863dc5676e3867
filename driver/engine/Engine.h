//===--- Engine.h - one translation unit through the checks -----*- C++ -*-===//
//
// Runs the enabled checks over one translation unit, in this process, the way
// clang-tidy does, with torch-tidy's speed-ups (bodies of functions in system
// headers skipped, matchers limited to the user's own declarations). Fixes
// are collected, never applied here.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_DRIVER_ENGINE_ENGINE_H
#define TORCH_TIDY_DRIVER_ENGINE_ENGINE_H

#include "base/UnitResult.h"
#include "driver/engine/Dependencies.h"
#include "driver/Options.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class SourceManager;
} // namespace clang

namespace torch_tidy::analysis {
class FunctionSummaries;
} // namespace torch_tidy::analysis

namespace torch_tidy {

/// Analyses \p File, or takes its result from the cache when nothing it
/// depends on changed. The context must have been made from the same options.
/// \p ToolIdentity names this build of torch-tidy (for the cache).
TUResult runEngine(const DriverOptions &Opts,
                   clang::tidy::ClangTidyContext &Context,
                   const clang::tooling::CompilationDatabase &Compilations,
                   llvm::StringRef File, llvm::StringRef ToolIdentity = "");

/// \p File's result from the result cache, before anything is analysed:
/// set when nothing it depends on changed, each file read at most once
/// through \p Memo (shared by the look-ups of one run). \p LookedUp says
/// whether the cache applies to the unit at all.
std::optional<TUResult>
cachedResult(const DriverOptions &Opts, clang::tidy::ClangTidyContext &Context,
             const clang::tooling::CompilationDatabase &Compilations,
             llvm::StringRef File, llvm::StringRef ToolIdentity,
             FileStateMemo &Memo, bool &LookedUp);

/// The summaries a unit is analysed with where no FunctionSummaries option
/// names a file: the project's (--torch-tidy-project-summaries, stale units
/// left out; in the first stage of a project run, those the last run left),
/// else, in the first stage, an empty set (so that the analysis records its
/// queries all the same), else null.
std::shared_ptr<const analysis::FunctionSummaries>
unitSummaries(const DriverOptions &Opts);

/// Whether result \p R, made with the summaries it records queries and
/// answers of, is the result the unit would have with \p Summaries.
bool resultHolds(const TUResult &R,
                 const analysis::FunctionSummaries *Summaries);

/// The files a parse entered (not those of a precompiled preamble it read):
/// absolute path -> content hash into \p Files, and the user (non-system)
/// ones, by the name they were opened with, into \p UserFiles.
void recordFilesEntered(const clang::SourceManager &SM, bool WithMainFile,
                        std::map<std::string, std::string> &Files,
                        std::map<std::string, std::string> &UserFiles);

/// The frontend action the checks run in, with the speed-ups of \p Opts
/// that need no cache (bodies of system-header functions skipped, matchers
/// limited to the user's declarations); what the unit read goes to
/// \p Result. For tools that run the engine on their own files (the fuzzer).
std::unique_ptr<clang::tooling::FrontendActionFactory>
newChecksActionFactory(clang::tidy::ClangTidyContext &Context,
                       const DriverOptions &Opts, TUResult &Result);

} // namespace torch_tidy

#endif
