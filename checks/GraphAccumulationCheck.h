//===--- GraphAccumulationCheck.h - torch-graph-accumulation --------------===//
#ifndef TORCH_TIDY_CHECKS_GRAPHACCUMULATIONCHECK_H
#define TORCH_TIDY_CHECKS_GRAPHACCUMULATIONCHECK_H

#include "checks/GrowthCheckBase.h"

namespace torch_tidy {

/// Flags a tensor that outlives the loop iteration and takes on autograd
/// history every iteration: a running total (`acc += loss`,
/// `acc = acc + loss`, `acc.add_(loss)`, `acc = torch::cat({acc, t})`, an EMA)
/// or a recurrent state fed back into a module (`h = cell(x, h)`).
class GraphAccumulationCheck : public GrowthCheckBase {
public:
  using GrowthCheckBase::GrowthCheckBase;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  void report(const clang::Expr *Write, const analysis::Lifetime &Life,
              const clang::ValueDecl *Target,
              llvm::ArrayRef<const clang::Expr *> Parts, bool Recurrent,
              analysis::HistoryAnalysis &History);
};

} // namespace torch_tidy

#endif
