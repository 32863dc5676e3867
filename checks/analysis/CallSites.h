//===--- CallSites.h - Every call of every function of the unit -----------===//
//
// Which calls of a function the translation unit has, and whether its
// address escapes so that not every caller is known. G asks it whether every
// caller is guarded, D where a result goes, H what a parameter is handed.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_ANALYSIS_CALLSITES_H
#define TORCH_TIDY_ANALYSIS_CALLSITES_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace torch_tidy::analysis {

/// Every call of every function defined outside system headers, in one
/// translation unit: a function whose every call site is guarded runs
/// guarded.
class CallSites {
public:
  explicit CallSites(clang::ASTContext &Ctx);
  /// The calls of \p FD; std::nullopt when its address escapes (it is
  /// passed or stored), so that not every caller is known.
  std::optional<llvm::ArrayRef<const clang::CallExpr *>>
  of(const clang::FunctionDecl *FD) const;

private:
  llvm::DenseMap<const clang::FunctionDecl *,
                 llvm::SmallVector<const clang::CallExpr *, 2>>
      Calls;
  llvm::DenseSet<const clang::FunctionDecl *> Escaping;
};

} // namespace torch_tidy::analysis

#endif
