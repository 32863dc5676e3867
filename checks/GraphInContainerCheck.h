//===--- GraphInContainerCheck.h - torch-graph-in-container ---------------===//
#ifndef TORCH_TIDY_CHECKS_GRAPHINCONTAINERCHECK_H
#define TORCH_TIDY_CHECKS_GRAPHINCONTAINERCHECK_H

#include "checks/GrowthCheckBase.h"

namespace torch_tidy {

/// Flags a tensor that carries autograd history stored into a container or
/// tensor buffer that outlives the loop iteration (push_back, emplace_back,
/// insert, emplace, push_front, m[k] = t, buf[i].copy_(t), buf.index_put_).
class GraphInContainerCheck : public GrowthCheckBase {
public:
  using GrowthCheckBase::GrowthCheckBase;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  void report(const clang::Expr *Store, const analysis::Lifetime &Life,
              llvm::ArrayRef<const clang::Expr *> Carrying,
              analysis::HistoryAnalysis &History);
};

} // namespace torch_tidy

#endif
