//===--- GrowthDiagnostics.h - What the growth checks say alike -----------===//
//
// The parts of a finding that torch-graph-accumulation and
// torch-graph-in-container share: what each step keeps (activations, or
// only the graph's nodes once a backward pass has run), whether a
// `.detach()` fix would change the gradients of a backward pass in the same
// iteration, the fixes themselves, and the notes that say why the target
// outlives the iteration and where the history comes from.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_CHECKS_GROWTHDIAGNOSTICS_H
#define TORCH_TIDY_CHECKS_GROWTHDIAGNOSTICS_H

#include "checks/analysis/History.h"
#include "checks/analysis/Outlives.h"
#include "clang-tidy/ClangTidyCheck.h"

namespace torch_tidy {

/// What each step of a growth finding keeps alive.
enum class Kept {
  Activations, ///< the graph and its saved tensors: device memory
  GraphNodes,  ///< a backward pass already ran: only the nodes, host memory
};

/// What storing or accumulating \p Values at \p Write keeps: only graph nodes
/// when a backward pass in the same iteration (or, for a parameter's value,
/// the iteration of the call site that handed it over) walks the graph of
/// every one of them.
Kept keptBy(llvm::ArrayRef<const clang::Expr *> Values,
            const analysis::Lifetime &Life, const clang::Stmt *Write,
            analysis::HistoryAnalysis &History);

/// Whether `.detach()` on what is written into \p Life's target would change
/// gradients: a backward pass walks the target's graph (so the history is
/// wanted), or, for \p Recurrent state, a backward pass keeps the graph of
/// the previous iterations alive on purpose (retain_graph).
bool detachChangesGradients(const analysis::Lifetime &Life,
                            const clang::Stmt *Write, bool Recurrent,
                            analysis::HistoryAnalysis &History);

/// How node-only findings are reported: `warning` (the default), `remark`
/// (a lower severity, out of `--warnings-as-errors` gates; SARIF level
/// "note") or `none` (not reported).
class NodeOnlyFindings {
public:
  explicit NodeOnlyFindings(llvm::StringRef Setting);
  bool valid() const { return Valid; }
  bool reported() const { return Level != Off; }
  clang::DiagnosticIDs::Level level(Kept K) const {
    return K == Kept::GraphNodes && Level == AsRemark ? clang::DiagnosticIDs::Remark
                                                      : clang::DiagnosticIDs::Warning;
  }
  llvm::StringRef setting() const { return Setting; }

private:
  enum { AsWarning, AsRemark, Off } Level = AsWarning;
  std::string Setting;
  bool Valid = true;
};

/// `.detach()` appended to each of \p Values; none at all when one of them
/// is not a single tensor or cannot be edited (a macro), so that a fix is
/// never partial.
llvm::SmallVector<clang::FixItHint, 2>
detachEach(llvm::ArrayRef<const clang::Expr *> Values,
           const clang::ASTContext &Ctx);

/// Notes at \p Shown's declaration (outside the loop, outliving each call,
/// or the caller's object), or at the class of the method's object when
/// that is the target, and at the loop that repeats the write.
void noteLifetime(clang::tidy::ClangTidyCheck &Check,
                  const analysis::Lifetime &Life, const clang::ValueDecl *Shown);

/// For a target updated in a function that a loop calls: a note at the
/// call site in the unit that hands the history of one of \p Values over,
/// or else at the parameter that a call in another unit hands it to
/// (FunctionSummaries), naming where that call is.
void noteCallSite(clang::tidy::ClangTidyCheck &Check,
                  llvm::ArrayRef<const clang::Expr *> Values,
                  analysis::HistoryAnalysis &History);

/// A note at the write that left the history of one of \p Values in a
/// member of the user's class, in another method (or an earlier call).
void noteMemberWrite(clang::tidy::ClangTidyCheck &Check,
                     llvm::ArrayRef<const clang::Expr *> Values,
                     analysis::HistoryAnalysis &History);

/// When the history of every one of \p Values rests on an assumption about
/// code out of view (HistoryAnalysis::assumptionBehind), a note that says
/// so, at the call so judged, naming the option that sets the assumption.
void noteAssumption(clang::tidy::ClangTidyCheck &Check,
                    llvm::ArrayRef<const clang::Expr *> Values,
                    analysis::HistoryAnalysis &History);

/// For a target that is a by-reference parameter: a note at the call site
/// in the unit that hands it an object outliving the call, if there is one.
void noteKeepingCallSite(clang::tidy::ClangTidyCheck &Check,
                         const analysis::Lifetime &Life,
                         analysis::HistoryAnalysis &History);

/// For a target that a loop fills to build its function's result, when no
/// caller differentiates that result (resultKeptForNothing): a note at the
/// unit's call that does not differentiate it, or, at \p Write, where a
/// call in another unit is.
void noteDiscardedResult(clang::tidy::ClangTidyCheck &Check,
                         const analysis::Lifetime &Life,
                         const clang::Stmt *Write,
                         analysis::HistoryAnalysis &History);

/// A note saying the fix was left out, and why.
void noteNoFix(clang::tidy::ClangTidyCheck &Check, const clang::Stmt *Write,
               bool Recurrent);

} // namespace torch_tidy

#endif
