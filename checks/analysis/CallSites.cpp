//===--- CallSites.cpp - Every call of every function of the unit ---------===//

#include "checks/analysis/CallSites.h"

#include "checks/analysis/ExprUtils.h"
#include "checks/analysis/Walk.h"
#include "clang/AST/DeclCXX.h"

using namespace clang;

namespace torch_tidy::analysis {

namespace {
class CallCollector : public StmtWalk {
public:
  CallCollector(
      llvm::DenseMap<const FunctionDecl *, llvm::SmallVector<const CallExpr *, 2>>
          &Calls,
      llvm::DenseSet<const FunctionDecl *> &Escaping)
      : StmtWalk(Options{/*TemplateInstantiations=*/true,
                         /*LambdaBodies=*/true}),
        Calls(Calls), Escaping(Escaping) {}
  bool visit(Stmt *S) override {
    if (const auto *Call = dyn_cast<CallExpr>(S)) {
      if (const FunctionDecl *FD = Call->getDirectCallee()) {
        Calls[FD->getCanonicalDecl()].push_back(Call);
        if (const Expr *Callee = Call->getCallee())
          Called.insert(Callee->IgnoreParenImpCasts());
      }
    } else if (const auto *Ref = dyn_cast<DeclRefExpr>(S)) {
      if (const auto *FD = dyn_cast<FunctionDecl>(Ref->getDecl()))
        if (!Called.contains(Ref))
          Referenced.push_back({FD->getCanonicalDecl(), Ref});
    }
    return true;
  }
  void finish() {
    for (auto [FD, Ref] : Referenced)
      if (!Called.contains(Ref))
        Escaping.insert(FD);
  }

private:
  llvm::DenseMap<const FunctionDecl *, llvm::SmallVector<const CallExpr *, 2>>
      &Calls;
  llvm::DenseSet<const FunctionDecl *> &Escaping;
  llvm::DenseSet<const Expr *> Called;
  llvm::SmallVector<std::pair<const FunctionDecl *, const DeclRefExpr *>, 8>
      Referenced;
};
} // namespace

CallSites::CallSites(ASTContext &Ctx,
                     std::shared_ptr<const FunctionSummaries> Summaries)
    : Elsewhere(std::move(Summaries)), SM(Ctx.getSourceManager()) {
  CallCollector Collector(Calls, Escaping);
  for (Decl *D : userDecls(Ctx))
    Collector.walkDecl(D);
  Collector.finish();
}

std::optional<llvm::ArrayRef<const CallExpr *>>
CallSites::of(const FunctionDecl *FD) const {
  FD = FD->getCanonicalDecl();
  if (Escaping.contains(FD))
    return std::nullopt;
  auto It = Calls.find(FD);
  if (It == Calls.end())
    return llvm::ArrayRef<const CallExpr *>();
  return llvm::ArrayRef<const CallExpr *>(It->second);
}

const CalledSummary *
CallSites::calledElsewhere(const FunctionDecl *FD, bool OnlyOff) const {
  if (!Elsewhere || !FD || !FD->isExternallyVisible())
    return nullptr;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD);
      MD && MD->getParent()->isLambda())
    return nullptr;
  if (!recordsOnlyElsewhere(FD))
    return nullptr;
  return Elsewhere->called(FD, OnlyOff);
}

bool CallSites::recordsOnlyElsewhere(const FunctionDecl *FD) const {
  return !bodyInHeader(FD, SM) || !Calls.count(FD->getCanonicalDecl());
}

/// Whether \p Callee is the call operator of a std::function.
static bool isFunctionWrapperCall(const FunctionDecl *Callee) {
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(Callee);
  if (!MD || MD->getOverloadedOperator() != OO_Call)
    return false;
  const CXXRecordDecl *RD = MD->getParent();
  return RD->isInStdNamespace() && RD->getIdentifier() &&
         (RD->getName() == "function" || RD->getName() == "move_only_function");
}

CallSites::Closures CallSites::closuresRunBy(const CallExpr *Call) const {
  Closures Out;
  const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
  if (!Op || Op->getNumArgs() == 0 ||
      !isFunctionWrapperCall(Op->getDirectCallee()))
    return Out;
  Out.Invokes = true;
  // The std::function called, followed through the parameters it is
  // handed in, a few callers out.
  llvm::SmallVector<std::pair<const Expr *, unsigned>, 4> Todo{{Op->getArg(0), 0}};
  while (!Todo.empty()) {
    auto [Held, Depth] = Todo.pop_back_val();
    if (const LambdaExpr *Lambda = lambdaHeldBy(Held)) {
      if (!llvm::is_contained(Out.Lambdas, Lambda))
        Out.Lambdas.push_back(Lambda);
      continue;
    }
    const auto *Param = dyn_cast_or_null<ParmVarDecl>(referencedDecl(Held));
    const auto *Function =
        Param ? dyn_cast<FunctionDecl>(Param->getDeclContext()) : nullptr;
    if (!Function || Depth >= 3 || calledElsewhere(Function))
      return Out;
    auto Sites = of(Function);
    if (!Sites || Sites->empty())
      return Out;
    for (const CallExpr *Site : *Sites) {
      const Expr *Arg = argumentFor(Site, Param->getFunctionScopeIndex(),
                                    /*Defaults=*/true);
      if (!Arg)
        return Out;
      Todo.push_back({Arg, Depth + 1});
    }
  }
  Out.Known = true;
  return Out;
}

} // namespace torch_tidy::analysis
