//===--- TrainingSteps.cpp - Which calls train, and the unit's helpers ----===//

#include "checks/analysis/TrainingSteps.h"

#include "checks/analysis/BackwardPasses.h"
#include "checks/analysis/TorchTypes.h"
#include "checks/analysis/Walk.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace torch_tidy::analysis {

const Stmt *userBodyCalled(const CallExpr *Call, const ASTContext &Ctx) {
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  if (!Callee || isLibraryFunction(Callee))
    return nullptr;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(Callee);
      MD && !MD->getParent()->isLambda() && mayBeOverridden(MD))
    return nullptr;
  const FunctionDecl *Def = Callee->getDefinition();
  if (!Def || !Def->hasBody() ||
      Ctx.getSourceManager().isInSystemHeader(Def->getLocation()))
    return nullptr;
  return Def->getBody();
}

bool callsOutOfView(const CallExpr *Call, const ASTContext &Ctx) {
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  if (!Callee || isLibraryFunction(Callee) ||
      Ctx.getSourceManager().isInSystemHeader(Callee->getLocation()))
    return false;
  const FunctionDecl *Def = Callee->getDefinition();
  if (!Def || !Def->hasBody())
    return true;
  const auto *MD = dyn_cast<CXXMethodDecl>(Callee);
  return MD && !MD->getParent()->isLambda() && mayBeOverridden(MD);
}

namespace {
/// The calls a body makes, outside the lambdas it defines.
class CallsIn : public StmtWalk {
public:
  llvm::SmallVector<const CallExpr *, 8> Calls;
  bool enter(Stmt *S) override { return !isa<LambdaExpr>(S); }
  bool visit(Stmt *S) override {
    if (const auto *Call = dyn_cast<CallExpr>(S))
      Calls.push_back(Call);
    return true;
  }
};
} // namespace

static bool callTrainsImpl(const CallExpr *Call, const ASTContext &Ctx,
                           unsigned Depth) {
  const Stmt *Body = userBodyCalled(Call, Ctx);
  if (!Body)
    return false;
  if (trainsIn(Body))
    return true;
  if (Depth >= 2)
    return false;
  CallsIn Inner;
  Inner.walk(Body);
  return llvm::any_of(Inner.Calls, [&](const CallExpr *C) {
    return callTrainsImpl(C, Ctx, Depth + 1);
  });
}

bool callTrains(const CallExpr *Call, const ASTContext &Ctx) {
  return callTrainsImpl(Call, Ctx, 0);
}

bool trainsThroughCalls(const Stmt *S, const ASTContext &Ctx) {
  if (!S)
    return false;
  if (trainsIn(S))
    return true;
  CallsIn Calls;
  Calls.walk(S);
  return llvm::any_of(Calls.Calls, [&](const CallExpr *Call) {
    return callTrains(Call, Ctx);
  });
}

bool accumulatesGradients(const CallExpr *Call) {
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  return isBackwardFunction(Callee) &&
         (isa<CXXMethodDecl>(Callee) || Callee->getName() != "grad");
}

} // namespace torch_tidy::analysis
