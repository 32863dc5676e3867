//===--- CallSites.h - Every call of every function of the unit -----------===//
//
// Which calls of a function the translation unit has, and whether its
// address escapes so that not every caller is known. G asks it whether every
// caller is guarded, D where a result goes, H what a parameter is handed.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_ANALYSIS_CALLSITES_H
#define TORCH_TIDY_ANALYSIS_CALLSITES_H

#include "checks/analysis/SummaryData.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

#include <memory>
#include <optional>

namespace torch_tidy::analysis {

/// Every call of every function defined outside system headers, in one
/// translation unit: a function whose every call site is guarded runs
/// guarded. With the project's summaries, also the grad mode of the calls
/// in other units.
class CallSites {
public:
  explicit CallSites(clang::ASTContext &Ctx,
                     std::shared_ptr<const FunctionSummaries> Elsewhere = nullptr);
  /// The calls of \p FD; std::nullopt when its address escapes (it is
  /// passed or stored), so that not every caller is known.
  std::optional<llvm::ArrayRef<const clang::CallExpr *>>
  of(const clang::FunctionDecl *FD) const;
  /// Every call found, by callee (its canonical declaration).
  const llvm::DenseMap<const clang::FunctionDecl *,
                       llvm::SmallVector<const clang::CallExpr *, 2>> &
  all() const {
    return Calls;
  }
  /// The functions whose address escapes in the unit.
  const llvm::DenseSet<const clang::FunctionDecl *> &escaping() const {
    return Escaping;
  }
  /// The grad mode that calls of \p FD in other units run it in, from the
  /// summaries; null when none says (no summaries, no call elsewhere, or
  /// \p FD is not one another unit can call: a lambda, a function of the
  /// unit alone). \p OnlyOff as for FunctionSummaries::called.
  const CalledSummary *calledElsewhere(const clang::FunctionDecl *FD,
                                       bool OnlyOff = false) const;
  /// Whether what the summaries record of the calls of \p FD is of calls
  /// in other units alone: always, but for a function whose body is in a
  /// header (bodyInHeader), whose calls every unit that makes them records,
  /// this one too; then only when this unit calls it nowhere (a unit that
  /// calls it answers from its own calls, as for a function of its own).
  bool recordsOnlyElsewhere(const clang::FunctionDecl *FD) const;

  /// The closures a call through a std::function (`callback(loss)`) may
  /// run: the lambda it holds where it is called, or, when it is a
  /// parameter, the lambdas every call of its function passes for it (all
  /// of them in the unit, none in another). Known is false when one of them
  /// is not in view; Invokes, when \p Call is no such call.
  struct Closures {
    bool Invokes = false;
    bool Known = false;
    llvm::SmallVector<const clang::LambdaExpr *, 2> Lambdas;
  };
  Closures closuresRunBy(const clang::CallExpr *Call) const;

  /// The calls of \p FD that a template's pattern makes on dependent
  /// values (`add_vectors(model, dataset, n)` with `dataset` of a template
  /// parameter's type), which clang resolves only in the template's
  /// instantiations: those whose candidates by name, taken with the number
  /// of arguments, leave \p FD alone. For a function that only templates
  /// the unit never instantiates call.
  llvm::ArrayRef<const clang::CallExpr *>
  dependentCallsOf(const clang::FunctionDecl *FD) const;

  /// The `main` the unit's own file defines; null when it defines none.
  const clang::FunctionDecl *programMain() const { return Main; }

private:
  std::shared_ptr<const FunctionSummaries> Elsewhere;
  const clang::SourceManager &SM;
  llvm::DenseMap<const clang::FunctionDecl *,
                 llvm::SmallVector<const clang::CallExpr *, 2>>
      Calls;
  llvm::DenseMap<const clang::FunctionDecl *,
                 llvm::SmallVector<const clang::CallExpr *, 2>>
      DependentCalls;
  llvm::DenseSet<const clang::FunctionDecl *> Escaping;
  const clang::FunctionDecl *Main = nullptr;
};

} // namespace torch_tidy::analysis

#endif
