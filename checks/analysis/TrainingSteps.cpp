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

/// An optimizer step, or a backward pass that adds into the parameters'
/// gradients, in \p S outside the lambdas it defines.
static bool updatesIn(const Stmt *S) {
  CallsIn Calls;
  Calls.walk(S);
  return llvm::any_of(Calls.Calls, [](const CallExpr *Call) {
    return isOptimizerStep(Call) || accumulatesGradients(Call);
  });
}

/// Whether \p Call runs a function of the unit whose body, or a function
/// of the unit it calls (three calls deep), does what \p Does says.
static bool callDoes(const CallExpr *Call, const ASTContext &Ctx,
                     llvm::function_ref<bool(const Stmt *)> Does,
                     unsigned Depth) {
  const Stmt *Body = userBodyCalled(Call, Ctx);
  if (!Body)
    return false;
  if (Does(Body))
    return true;
  if (Depth >= 2)
    return false;
  CallsIn Inner;
  Inner.walk(Body);
  return llvm::any_of(Inner.Calls, [&](const CallExpr *C) {
    return callDoes(C, Ctx, Does, Depth + 1);
  });
}

bool callTrains(const CallExpr *Call, const ASTContext &Ctx) {
  return callDoes(Call, Ctx, trainsIn, 0);
}

/// Whether \p S does what \p Does says, itself or in a call (outside the
/// lambdas it defines) of a function of the unit that does (callDoes).
static bool doesThroughCalls(const Stmt *S, const ASTContext &Ctx,
                             llvm::function_ref<bool(const Stmt *)> Does) {
  if (!S)
    return false;
  if (Does(S))
    return true;
  CallsIn Calls;
  Calls.walk(S);
  return llvm::any_of(Calls.Calls, [&](const CallExpr *Call) {
    return callDoes(Call, Ctx, Does, 0);
  });
}

bool updatesParametersThroughCalls(const Stmt *S, const ASTContext &Ctx) {
  return doesThroughCalls(S, Ctx, updatesIn);
}

bool trainsThroughCalls(const Stmt *S, const ASTContext &Ctx) {
  return doesThroughCalls(S, Ctx, trainsIn);
}

bool runsModelRepeatedlyThroughCalls(const Stmt *S, const ASTContext &Ctx,
                                     const NameGuesses &Names) {
  auto RunsModel = [&](const Stmt *Body) {
    return !forwardCallsIn(Body, Names).empty();
  };
  // A loop whose body runs a forward pass, itself or in a function of the
  // unit it calls.
  auto LoopRunsModel = [&](const Stmt *Body) {
    class Loops : public StmtWalk {
    public:
      llvm::SmallVector<const Stmt *, 4> Found;
      bool enter(Stmt *S) override { return !isa<LambdaExpr>(S); }
      bool visit(Stmt *S) override {
        if (isa<ForStmt, CXXForRangeStmt, WhileStmt, DoStmt>(S))
          Found.push_back(S);
        return true;
      }
    } Finder;
    Finder.walk(Body);
    return llvm::any_of(Finder.Found, [&](const Stmt *Loop) {
      return doesThroughCalls(Loop, Ctx, RunsModel);
    });
  };
  return doesThroughCalls(S, Ctx, LoopRunsModel);
}

bool accumulatesGradients(const CallExpr *Call) {
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  return isBackwardFunction(Callee) &&
         (isa<CXXMethodDecl>(Callee) || Callee->getName() != "grad");
}

} // namespace torch_tidy::analysis
