//===--- GrowthDiagnostics.cpp - What the growth checks say alike ---------===//

#include "checks/GrowthDiagnostics.h"

#include "checks/analysis/TorchTypes.h"
#include "fixits/Edits.h"

using namespace clang;

namespace torch_tidy {

llvm::SmallVector<FixItHint, 2> detachEach(llvm::ArrayRef<const Expr *> Values,
                                           const ASTContext &Ctx) {
  llvm::SmallVector<FixItHint, 2> Fixes;
  for (const Expr *E : Values) {
    auto Fix = analysis::isTensorType(E->getType())
                   ? fixits::appendDetach(E, Ctx)
                   : std::nullopt;
    if (!Fix)
      return {};
    Fixes.push_back(*Fix);
  }
  return Fixes;
}

void noteLifetime(tidy::ClangTidyCheck &Check, const analysis::Lifetime &Life,
                  const ValueDecl *Shown) {
  Check.diag(Shown->getLocation(),
             Life.Kind == analysis::Lifetime::Loop
                 ? "'%0' is declared outside the loop"
                 : "'%0' outlives each call of the function",
             DiagnosticIDs::Note)
      << Shown->getName();
  if (Life.LoopStmt)
    Check.diag(Life.LoopStmt->getBeginLoc(), "the loop that repeats it",
               DiagnosticIDs::Note);
}

} // namespace torch_tidy
