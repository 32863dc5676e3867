//===--- GrowthDiagnostics.h - What the growth checks say alike -----------===//
//
// The parts of a finding that torch-graph-accumulation and
// torch-graph-in-container share: the `.detach()` fixes and the notes that
// say why the target outlives the iteration.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_CHECKS_GROWTHDIAGNOSTICS_H
#define TORCH_TIDY_CHECKS_GROWTHDIAGNOSTICS_H

#include "checks/analysis/Outlives.h"
#include "clang-tidy/ClangTidyCheck.h"

namespace torch_tidy {

/// `.detach()` appended to each of \p Values; none at all when one of them
/// is not a single tensor or cannot be edited (a macro), so that a fix is
/// never partial.
llvm::SmallVector<clang::FixItHint, 2>
detachEach(llvm::ArrayRef<const clang::Expr *> Values,
           const clang::ASTContext &Ctx);

/// Notes at \p Shown's declaration (outside the loop, or outliving each
/// call) and at the loop that repeats the write.
void noteLifetime(clang::tidy::ClangTidyCheck &Check,
                  const analysis::Lifetime &Life, const clang::ValueDecl *Shown);

} // namespace torch_tidy

#endif
