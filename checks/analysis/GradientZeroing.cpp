//===--- GradientZeroing.cpp - Are a step's gradients cleared between steps?===//

#include "checks/analysis/GradientZeroing.h"

#include "checks/analysis/BackwardPasses.h"
#include "checks/analysis/TorchTypes.h"
#include "checks/analysis/LoopScope.h"
#include "checks/analysis/TrainingSteps.h"
#include "checks/analysis/Walk.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace torch_tidy::analysis {

namespace {
/// What a call clears: an optimizer's gradients, a module's, or those of
/// tensors (which may be any parameters).
struct Clearing {
  enum KindT { Optimizer, Module, Tensors } Kind;
  ObjectPath Path;
};

/// The calls and gradient writes of a statement, outside lambdas it only
/// defines.
class ExprsIn : public StmtWalk {
public:
  llvm::SmallVector<const Expr *, 16> Found;
  bool enter(Stmt *S) override { return !isa<LambdaExpr>(S); }
  bool visit(Stmt *S) override {
    if (const auto *Call = dyn_cast<CallExpr>(S))
      Found.push_back(Call);
    return true;
  }
};

/// The loops of a body, outside lambdas.
class LoopsIn : public StmtWalk {
public:
  llvm::SmallVector<const Stmt *, 8> Loops;
  bool enter(Stmt *S) override { return !isa<LambdaExpr>(S); }
  bool visit(Stmt *S) override {
    if (isLoop(S))
      Loops.push_back(S);
    return true;
  }
};

/// Whether \p RD, a class of the user's, holds an optimizer or a module.
bool holdsTrainingState(const CXXRecordDecl *RD) {
  if (!RD->hasDefinition() || inLibraryNamespace(RD))
    return false;
  return llvm::any_of(RD->fields(), [](const FieldDecl *Field) {
    const CXXRecordDecl *Held = objectClass(Field->getType());
    return Held && (derivesFrom(Held, "torch::optim::Optimizer") ||
                    isModuleClass(Held));
  });
}

/// A member call of a template pattern whose function the template's
/// arguments decide (`this->net->zero_grad()` with `net` of type
/// `std::shared_ptr<NetT>`): the name it calls by and the object it is made
/// on (null for an implicit `this`). No name for any other call.
struct DependentMemberCall {
  llvm::StringRef Name;
  const Expr *Object = nullptr;
};
DependentMemberCall dependentMemberCall(const CallExpr *Call) {
  const Expr *Callee = Call->getCallee()->IgnoreParenImpCasts();
  auto Of = [](const auto *Member, DeclarationName Name) {
    DependentMemberCall Out;
    if (Name.isIdentifier())
      Out.Name = Name.getAsIdentifierInfo()->getName();
    if (!Member->isImplicitAccess())
      Out.Object = Member->getBase();
    return Out;
  };
  if (const auto *Member = dyn_cast<CXXDependentScopeMemberExpr>(Callee))
    return Of(Member, Member->getMember());
  if (const auto *Member = dyn_cast<UnresolvedMemberExpr>(Callee))
    return Of(Member, Member->getMemberName());
  return {};
}

/// What \p Call clears, in the terms of the function that makes it.
void clearingsOf(const CallExpr *Call, const ASTContext &Ctx, unsigned Depth,
                 llvm::SmallVectorImpl<Clearing> &Out);

/// What the body \p Call runs clears, as the caller names it.
void clearingsThrough(const CallExpr *Call, const ASTContext &Ctx,
                      unsigned Depth, llvm::SmallVectorImpl<Clearing> &Out) {
  const Stmt *Body = Depth < 3 ? userBodyCalled(Call, Ctx) : nullptr;
  if (!Body)
    return;
  ExprsIn Inner;
  Inner.walk(Body);
  llvm::SmallVector<Clearing, 2> InCallee;
  for (const Expr *E : Inner.Found)
    clearingsOf(cast<CallExpr>(E), Ctx, Depth + 1, InCallee);
  for (Clearing &C : InCallee) {
    if (C.Kind != Clearing::Tensors)
      C.Path = asCallerNames(C.Path, Call);
    Out.push_back(C);
  }
}

void clearingsOf(const CallExpr *Call, const ASTContext &Ctx, unsigned Depth,
                 llvm::SmallVectorImpl<Clearing> &Out) {
  if (isOptimizerZeroGrad(Call)) {
    Out.push_back({Clearing::Optimizer, receiverPath(Call)});
    return;
  }
  if (isModuleZeroGrad(Call)) {
    Out.push_back({Clearing::Module, receiverPath(Call)});
    return;
  }
  if (clearsTensorGradient(Call)) {
    Out.push_back({Clearing::Tensors, {}});
    return;
  }
  // In a template pattern, a call whose function the template's arguments
  // decide: a `zero_grad()` may be any optimizer's or module's, and a
  // `zero_()` or `reset()` of a `grad()` any tensor's. The name is all there
  // is to go by until the template is instantiated (an instantiation in the
  // unit is judged with the functions it calls).
  if (DependentMemberCall Dependent = dependentMemberCall(Call);
      !Dependent.Name.empty()) {
    if (Dependent.Name == "zero_grad") {
      Out.push_back({Clearing::Optimizer, {}});
      return;
    }
    // The call the object comes from: `p.grad()`, of a dependent `p` or not.
    const auto *Of = dyn_cast_or_null<CallExpr>(
        Dependent.Object ? Dependent.Object->IgnoreParenImpCasts() : nullptr);
    llvm::StringRef OfName;
    if (Of) {
      OfName = dependentMemberCall(Of).Name;
      if (const FunctionDecl *FD = Of->getDirectCallee();
          OfName.empty() && FD && FD->getIdentifier())
        OfName = FD->getName();
    }
    if ((Dependent.Name == "zero_" || Dependent.Name == "reset") &&
        (OfName == "grad" || OfName == "mutable_grad")) {
      Out.push_back({Clearing::Tensors, {}});
      return;
    }
  }
  if (!callsOutOfView(Call, Ctx)) {
    clearingsThrough(Call, Ctx, Depth, Out);
    return;
  }
  // A function of the user's out of view may clear what it is handed.
  llvm::SmallVector<const Expr *, 4> Handed(Call->arguments());
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call))
    if (const Expr *Object = Member->getImplicitObjectArgument())
      Handed.push_back(Object);
  for (const Expr *E : Handed) {
    const CXXRecordDecl *RD = objectClass(E->getType());
    if (RD && derivesFrom(RD, "torch::optim::Optimizer"))
      Out.push_back({Clearing::Optimizer, objectPath(E)});
    else if (RD && isModuleClass(RD))
      Out.push_back({Clearing::Module, objectPath(E)});
    else if (RD && holdsTrainingState(RD))
      // An object of the user's that holds an optimizer or a module.
      Out.push_back({Clearing::Module, objectPath(E)}),
          Out.push_back({Clearing::Optimizer, objectPath(E)});
  }
}
} // namespace

GradientZeroing::GradientZeroing(const CallExpr *Step, const FunctionDecl *Function,
                                 ASTContext &Ctx)
    : Step(Step), Ctx(Ctx), Optimizer(receiverPath(Step)),
      Modules(optimizedModules(Optimizer, Ctx)) {
  if (!Function || !Function->hasBody())
    return;
  const SourceManager &SM = Ctx.getSourceManager();
  LoopsIn Loops;
  Loops.walk(Function->getBody());
  for (const Stmt *Loop : Loops.Loops) {
    SourceRange Range = Loop->getSourceRange();
    if (SM.isPointWithin(Step->getBeginLoc(), Range.getBegin(), Range.getEnd()))
      continue;
    ExprsIn Inner;
    Inner.walk(Loop);
    if (llvm::any_of(Inner.Found, [&](const Expr *E) { return clearsHere(E, 0); }))
      ClearingLoops.push_back(Range);
  }
}

bool GradientZeroing::clearsHere(const Stmt *S, unsigned Depth) {
  const auto *Call = dyn_cast_or_null<CallExpr>(S);
  if (!Call)
    return false;
  auto [It, New] = Known.try_emplace(Call, false);
  if (!New)
    return It->second;
  llvm::SmallVector<Clearing, 2> Clearings;
  clearingsOf(Call, Ctx, Depth, Clearings);
  bool Clears = llvm::any_of(Clearings, [&](const Clearing &C) {
    switch (C.Kind) {
    case Clearing::Tensors:
      return true;
    case Clearing::Optimizer:
      if (!C.Path.Known || ownsOrIs(C.Path, Optimizer) ||
          mayAlias(C.Path, Optimizer))
        return true;
      // Another optimizer built on the same module's parameters (Adam for
      // the first steps, then LBFGS, whose closure zeroes its own): its
      // zero_grad() clears the gradients this one applies.
      if (Modules.Known) {
        OptimizedModules Other = optimizedModules(C.Path, Ctx);
        return Other.Known &&
               llvm::any_of(Other.Paths, [&](const ObjectPath &P) {
                 return P.Known && Modules.mayInclude(P);
               });
      }
      return false;
    case Clearing::Module:
      return Modules.mayInclude(C.Path);
    }
    return false;
  });
  Known[Call] = Clears;
  return Clears;
}

bool GradientZeroing::clears(const Stmt *S) {
  if (clearsHere(S, 0))
    return true;
  const SourceManager &SM = Ctx.getSourceManager();
  return llvm::any_of(ClearingLoops, [&](SourceRange Loop) {
    return SM.isPointWithin(S->getBeginLoc(), Loop.getBegin(), Loop.getEnd());
  });
}

bool GradientZeroing::isSameStep(const Stmt *S) const {
  const auto *Call = dyn_cast_or_null<CallExpr>(S);
  if (!Call || !isOptimizerStep(Call))
    return false;
  ObjectPath Other = receiverPath(Call);
  return Other == Optimizer || mayAlias(Other, Optimizer);
}

const Stmt *GradientZeroing::stepReachedUncleared(const FunctionFlow &Flow) {
  if (!Optimizer.Known || !Flow.valid())
    return nullptr;
  auto Nearest = Flow.nearestBefore(
      Step, [&](const Stmt *S) { return isSameStep(S) || clears(S); });
  for (const Stmt *Found : Nearest.Found)
    if (isSameStep(Found) && !clears(Found))
      return Found;
  return nullptr;
}

bool GradientZeroing::clearsIn(const Stmt *Scope) {
  ExprsIn Inner;
  Inner.walk(Scope);
  return llvm::any_of(Inner.Found, [&](const Expr *E) { return clears(E); });
}

} // namespace torch_tidy::analysis
