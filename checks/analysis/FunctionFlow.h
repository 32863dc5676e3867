//===--- FunctionFlow.h - Order of evaluation inside one function ---------===//
//
// Clang's CFG of one function body, and the two questions the analyses ask
// of it: which definitions of a variable reach a use (reaching definitions,
// walked backwards over every path), and what the nearest statement of some
// kind is on every path to a point (e.g. the last `module->eval()` /
// `module->train()` before a forward call).
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_ANALYSIS_FUNCTIONFLOW_H
#define TORCH_TIDY_ANALYSIS_FUNCTIONFLOW_H

#include "clang/AST/ASTContext.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <memory>

namespace torch_tidy::analysis {

/// One place where a variable gets its value.
struct Definition {
  enum KindT {
    Replace, ///< `T v = e;`, `v = e;`, `std::tie(v, w) = e;`, `v.clear()`
    Update,  ///< `v += e;`, `v.add_(e)`, `v.push_back(e)`, `v[k] = e`, `v.f = e`: keeps the old value too
    Entry,   ///< the value on entry: a parameter, or a variable never written here
  } Kind;
  const clang::Stmt *At = nullptr;
  llvm::SmallVector<const clang::Expr *, 2> Values;
  /// For `std::tie(a, b) = e`: which element of e the variable gets; -1
  /// when it gets the whole of each value.
  int Element = -1;
  /// For `v.f = e` with v a struct of tensors: the index of the field of v
  /// written; -1 when the write is not to one field.
  int Field = -1;
};

/// Whether \p S, a statement or expression, defines \p Var, and how.
std::optional<Definition> definitionAt(const clang::Stmt *S,
                                       const clang::ValueDecl *Var);

class FunctionFlow {
public:
  FunctionFlow(const clang::FunctionDecl *Function, clang::ASTContext &Ctx);

  /// Whether a CFG could be built.
  bool valid() const { return Cfg != nullptr; }
  /// The function whose flow this is.
  const clang::FunctionDecl *function() const { return Function; }

  /// The definitions of \p Var that may reach the evaluation of \p Use.
  llvm::SmallVector<Definition, 4> reachingDefinitions(const clang::ValueDecl *Var,
                                                       const clang::Stmt *Use) const;

  /// The definitions of \p Var that may reach the function's exit: what a
  /// member holds when a method returns (Entry when some path leaves it
  /// as it was).
  llvm::SmallVector<Definition, 4> definitionsAtExit(const clang::ValueDecl *Var) const;

  /// What reaches \p Use of \p Var from before the current iteration of
  /// \p Loop (the paths that cross its header without a Replace of \p Var
  /// in between) or, with no loop, from before the call (the Entry
  /// definition).
  struct Carried {
    bool Crosses = false; ///< some path carries the value over
    llvm::SmallVector<Definition, 4> Defs; ///< what it may carry
  };
  Carried carriedDefinitions(const clang::ValueDecl *Var, const clang::Stmt *Use,
                             const clang::Stmt *Loop) const;

  struct Nearest {
    llvm::SmallVector<const clang::Stmt *, 4> Found; ///< one per path that has one
    bool ReachesEntry = false; ///< some path from the entry has none
  };
  /// Walking back from \p Use along every path, the first statement for which
  /// \p Pred holds.
  Nearest nearestBefore(const clang::Stmt *Use,
                        llvm::function_ref<bool(const clang::Stmt *)> Pred) const;

private:
  std::optional<std::pair<const clang::CFGBlock *, unsigned>>
  positionOf(const clang::Stmt *S) const;
  /// The one backward walk over the CFG: from each of \p Work (a block and
  /// the index past its last statement to look at), every statement back
  /// along every path, latest first, until \p EndsPath says a path ends at
  /// one; into each predecessor not yet visited that \p Follow accepts.
  /// Returns whether some path reached the function's entry.
  bool walkBack(
      llvm::SmallVector<std::pair<const clang::CFGBlock *, unsigned>, 16> Work,
      llvm::function_ref<bool(const clang::Stmt *)> EndsPath,
      llvm::function_ref<bool(const clang::CFGBlock *)> Follow) const;
  /// Walks back from each of \p Starts, collecting the definitions of
  /// \p Var into \p Result up to the first Replace on each path; returns
  /// whether a path reached the function's entry.
  bool collectBackwards(
      const clang::ValueDecl *Var,
      llvm::SmallVector<std::pair<const clang::CFGBlock *, unsigned>, 16> Work,
      llvm::SmallVectorImpl<Definition> &Result) const;

  clang::ASTContext &Ctx;
  const clang::FunctionDecl *Function = nullptr;
  std::unique_ptr<clang::CFG> Cfg;
  llvm::DenseMap<const clang::Stmt *, std::pair<const clang::CFGBlock *, unsigned>>
      Position;
};

} // namespace torch_tidy::analysis

#endif
