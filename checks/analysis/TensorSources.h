//===--- TensorSources.h - Which variables a tensor was computed from -----===//
//
// The tensor-holding variables and fields whose values flow into an
// expression, following, inside one function, the initialisers of local
// variables and every value assigned to them (`=`, compound assignment,
// std::tie, structured bindings), transitively. Two expressions that share a
// source may share an autograd graph.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_ANALYSIS_TENSORSOURCES_H
#define TORCH_TIDY_ANALYSIS_TENSORSOURCES_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <functional>

namespace torch_tidy::analysis {

using DeclSet = llvm::SmallPtrSet<const clang::ValueDecl *, 8>;

/// The assignments of one function body, gathered once and asked many times.
class TensorSources {
public:
  explicit TensorSources(const clang::Stmt *FunctionBody);

  /// The tensor-holding variables and fields that \p E's value is computed
  /// from, \p E's own included.
  DeclSet sourcesOf(const clang::Expr *E) const;

  /// sourcesOf, following only what may carry autograd history: the
  /// variables and fields \p E may take a graph from (`loss` built from
  /// `v` and `baseline.detach()` takes none from `baseline`).
  DeclSet historySourcesOf(const clang::Expr *E,
                           const clang::ASTContext &Ctx) const;

  /// \p From and every variable or field of the function whose stored
  /// values are computed from one of them (the bindings of a structured
  /// binding along with it).
  DeclSet computedFrom(const DeclSet &From) const;

  /// computedFrom, following only what may carry autograd history: a value
  /// cut from the graph (`t.detach()`, `t.item()`, `argmax`: cutsHistory)
  /// is computed from nothing (`buffer.push_back(log_prob.detach())` takes
  /// none of log_prob's graph into buffer).
  DeclSet historyFrom(const DeclSet &From, const clang::ASTContext &Ctx) const;

  /// In what the history-following questions (historySourcesOf,
  /// historyFrom) follow, also leave out the values \p Predicate says carry
  /// no history (what an analysis above this one knows: a call of a
  /// function that computes its result under a guard).
  void alsoCut(std::function<bool(const clang::Expr *)> Predicate) {
    CarriesNothing = std::move(Predicate);
  }

  /// The values stored into \p D in the function.
  llvm::ArrayRef<const clang::Expr *> storedValues(const clang::ValueDecl *D) const;

  /// The sources of every value stored into \p D in the function.
  DeclSet sourcesOfDecl(const clang::ValueDecl *D) const;

  /// The tensor-holding variables and fields \p E names itself.
  DeclSet namedIn(const clang::Expr *E) const;

private:
  DeclSet sourcesOf(const clang::Expr *E, const clang::ASTContext *CutsIn) const;
  DeclSet computedFrom(const DeclSet &From, const clang::ASTContext *CutsIn) const;
  DeclSet sourcesOfDecl(const clang::ValueDecl *D,
                        const clang::ASTContext *CutsIn) const;

  std::function<bool(const clang::Expr *)> CarriesNothing;
  /// Every expression whose value is stored into a local variable.
  llvm::DenseMap<const clang::ValueDecl *,
                 llvm::SmallVector<const clang::Expr *, 2>>
      StoredInto;
};

} // namespace torch_tidy::analysis

#endif
