//===--- IndexUses.h - Values a function uses as indices ------------------===//
//
// LibTorch takes only integer or boolean tensors as indices: in an index
// list (`t.index({i, j})`, `t.index_put_({mask}, v)`), as the index of
// `index_select`, `gather`, `scatter`, `index_add`, `take`, as the mask of
// `masked_fill` or `masked_select`, as the condition of `torch::where`, as
// a tensor subscript (`t[i]`). Autograd records no history for integer or
// boolean tensors, so a value that a function goes on to use there carries
// none, whatever it was computed from: coordinates taken from a model's
// output, a mask compared from it.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_ANALYSIS_INDEXUSES_H
#define TORCH_TIDY_ANALYSIS_INDEXUSES_H

#include "checks/analysis/FunctionFlow.h"
#include "clang/AST/ASTContext.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

namespace torch_tidy::analysis {

class IndexUses {
public:
  /// Whether the value that \p Def gives \p Var, a local tensor or a local
  /// container of tensors, reaches a use of \p Var (or of an element or a
  /// part of it) as an index in \p Flow's function: it is then an integer
  /// or boolean tensor. A container's elements are taken to be alike.
  bool usedAsIndex(const FunctionFlow &Flow, const clang::VarDecl *Var,
                   const Definition &Def);

  /// The places in \p Function's body (lambdas left out) where \p Var, an
  /// element or a part of it is used as an index.
  llvm::ArrayRef<const clang::Expr *> usesOf(const clang::FunctionDecl *Function,
                                             const clang::VarDecl *Var);

private:
  void scan(const clang::FunctionDecl *Function);

  llvm::DenseSet<const clang::FunctionDecl *> Scanned;
  llvm::DenseMap<const clang::VarDecl *, llvm::SmallVector<const clang::Expr *, 2>>
      Uses;
  /// Per variable, the definitions (by where they are; null for the value
  /// on entry) found to reach one of its index uses.
  llvm::DenseMap<const clang::VarDecl *, llvm::SmallVector<const clang::Stmt *, 4>>
      Reaching;
};

} // namespace torch_tidy::analysis

#endif
