//===--- CarriedState.h - What a write carries over from the last iteration ===//
//
// A target that outlives the iteration (O) grows only when what is written
// into it is computed from the value it held before this iteration (or, for
// a member, a global or a by-reference parameter, before this call) and that
// value may carry history: `acc = acc + loss`, `h = cell(x, h)`. A read of
// the target sees the carried value when some path from the start of the
// iteration (the loop's header; the function's entry) reaches it with no
// assignment of the target in between: `h = h.detach();` at the top of the
// iteration (truncated backpropagation through time), or `mu_ = f(x);`
// before `mu_ = g(mu_);` in one call, cut the carry. What was carried over
// from a previous iteration carries history when one of the assignments
// that may have left it there does (a window reset after its backward pass
// carries none on that path). Reads are followed through the local
// variables the written value is computed from (`auto [out, st] =
// rnn(x, h); h = st;`), and never through detach(), item(), ...
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_ANALYSIS_CARRIEDSTATE_H
#define TORCH_TIDY_ANALYSIS_CARRIEDSTATE_H

#include "checks/analysis/History.h"
#include "checks/analysis/Outlives.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace torch_tidy::analysis {

/// What a value written into a target is made of.
struct WriteParts {
  /// The largest parts that do not involve the carried value and require
  /// gradients: what is added to a running value.
  llvm::SmallVector<const clang::Expr *, 2> Carrying;
  /// Reads of the carried value with history that reach a module's
  /// forward: a recurrent state.
  llvm::SmallVector<const clang::Expr *, 2> FedBack;
  /// Every read of the carried value with history.
  llvm::SmallVector<const clang::Expr *, 2> CarriedReads;
};

class CarriedState {
public:
  /// For writes into \p Target (a variable, or the member written in
  /// `obj.member = ...`) whose lifetime is \p Life.
  CarriedState(HistoryAnalysis &History, const Lifetime &Life,
               const clang::ValueDecl *Target);

  /// Whether \p Read, an expression naming the target, sees the value the
  /// target held before this iteration (or call) and that value may carry
  /// history.
  bool readsCarriedHistory(const clang::Expr *Read);

  /// Whether \p Value is computed from such a read, directly or through
  /// local variables, other than through detach(), item(), ...
  bool dependsOnCarried(const clang::Expr *Value);

  /// What \p Value, written into the target, is made of.
  WriteParts split(const clang::Expr *Value);

  /// Whether \p Value runs a different module in each iteration of the loop
  /// (`x = layers[l]->forward(x)`, `for (auto &block : blocks) x =
  /// block(x);`): a stack of layers, whose graph is bounded by its depth,
  /// not a state carried through time.
  bool stepsThroughLayers(const clang::Expr *Value);

private:
  bool dependsOnCarried(const clang::Expr *Value, unsigned Depth);
  void split(const clang::Expr *E, bool InForward, unsigned Depth,
             WriteParts &Out);
  /// The values assigned to local \p Var that reach \p Use.
  llvm::SmallVector<const clang::Expr *, 2>
  valuesReaching(const clang::VarDecl *Var, const clang::Expr *Use);
  /// Whether \p E names a local tensor-holding variable other than the
  /// target, which is then followed.
  const clang::VarDecl *followedLocal(const clang::Expr *E);

  HistoryAnalysis &History;
  Lifetime Life;
  const clang::ValueDecl *Target;
  llvm::DenseMap<const clang::Expr *, bool> CarriedReads;
  llvm::DenseMap<const clang::Expr *, bool> Depends;
  llvm::SmallPtrSet<const clang::Expr *, 16> Split;
};

} // namespace torch_tidy::analysis

#endif
