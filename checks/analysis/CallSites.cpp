//===--- CallSites.cpp - Every call of every function of the unit ---------===//

#include "checks/analysis/CallSites.h"

#include "checks/analysis/ExprUtils.h"
#include "checks/analysis/Walk.h"
#include "clang/AST/DeclCXX.h"

using namespace clang;

namespace torch_tidy::analysis {

namespace {
using CallMap =
    llvm::DenseMap<const FunctionDecl *, llvm::SmallVector<const CallExpr *, 2>>;

/// The namespaces in which argument-dependent lookup finds more candidates
/// for \p Call, from the arguments whose types are known in the template:
/// that of each class type (and of its direct bases).
static llvm::SmallVector<const DeclContext *, 4>
associatedNamespaces(const CallExpr *Call) {
  llvm::SmallVector<const DeclContext *, 4> Namespaces;
  auto Add = [&](const CXXRecordDecl *Class) {
    const DeclContext *NS = Class->getEnclosingNamespaceContext();
    if (!llvm::is_contained(Namespaces, NS))
      Namespaces.push_back(NS);
  };
  for (const Expr *Arg : Call->arguments()) {
    QualType T = Arg->getType();
    if (T.isNull() || T->isDependentType())
      continue;
    T = T.getNonReferenceType();
    if (const auto *Pointer = T->getAs<PointerType>())
      T = Pointer->getPointeeType();
    const auto *Class = T->getAsCXXRecordDecl();
    if (!Class || !Class->hasDefinition())
      continue;
    Add(Class);
    for (const CXXBaseSpecifier &Base : Class->bases())
      if (const auto *BaseClass = Base.getType()->getAsCXXRecordDecl())
        Add(BaseClass);
  }
  return Namespaces;
}

/// The one function a call on dependent values may name: of the candidates
/// its name finds (`f(x)`, `this->f(x)`, and, for an unqualified name, those
/// of the namespaces of the arguments' known types), those that take its
/// number of arguments, when there is exactly one. Null otherwise, and for
/// a call whose number of arguments is not known (a pack expansion among
/// them).
static const FunctionDecl *onlyCandidate(const CallExpr *Call) {
  const auto *Overloads =
      dyn_cast_or_null<OverloadExpr>(Call->getCallee()->IgnoreParenImpCasts());
  if (!Overloads ||
      llvm::any_of(Call->arguments(),
                   [](const Expr *Arg) { return isa<PackExpansionExpr>(Arg); }))
    return nullptr;
  llvm::SmallVector<const NamedDecl *, 4> Candidates(Overloads->decls_begin(),
                                                     Overloads->decls_end());
  if (const auto *Lookup = dyn_cast<UnresolvedLookupExpr>(Overloads);
      Lookup && Lookup->requiresADL())
    for (const DeclContext *NS : associatedNamespaces(Call))
      for (const NamedDecl *D : NS->lookup(Lookup->getName()))
        Candidates.push_back(D);
  unsigned NumArgs = Call->getNumArgs();
  const FunctionDecl *Only = nullptr;
  for (const NamedDecl *D : Candidates) {
    D = D->getUnderlyingDecl();
    const FunctionDecl *FD = nullptr;
    if (const auto *Template = dyn_cast<FunctionTemplateDecl>(D))
      FD = Template->getTemplatedDecl();
    else
      FD = dyn_cast<FunctionDecl>(D);
    if (!FD)
      return nullptr;
    if (NumArgs < FD->getMinRequiredArguments() ||
        (NumArgs > FD->getNumParams() && !FD->isVariadic()))
      continue;
    if (Only && Only->getCanonicalDecl() != FD->getCanonicalDecl())
      return nullptr;
    Only = FD;
  }
  return Only;
}

class CallCollector : public StmtWalk {
public:
  CallCollector(CallMap &Calls, CallMap &DependentCalls,
                llvm::DenseSet<const FunctionDecl *> &Escaping)
      : StmtWalk(Options{/*TemplateInstantiations=*/true,
                         /*LambdaBodies=*/true}),
        Calls(Calls), DependentCalls(DependentCalls), Escaping(Escaping) {}
  bool visit(Stmt *S) override {
    if (const auto *Call = dyn_cast<CallExpr>(S)) {
      if (const FunctionDecl *FD = Call->getDirectCallee()) {
        Calls[FD->getCanonicalDecl()].push_back(Call);
        if (const Expr *Callee = Call->getCallee())
          Called.insert(Callee->IgnoreParenImpCasts());
      } else if (Call->getCallee() && Call->isTypeDependent()) {
        if (const FunctionDecl *Only = onlyCandidate(Call))
          DependentCalls[Only->getCanonicalDecl()].push_back(Call);
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
  CallMap &Calls;
  CallMap &DependentCalls;
  llvm::DenseSet<const FunctionDecl *> &Escaping;
  llvm::DenseSet<const Expr *> Called;
  llvm::SmallVector<std::pair<const FunctionDecl *, const DeclRefExpr *>, 8>
      Referenced;
};
} // namespace

CallSites::CallSites(ASTContext &Ctx,
                     std::shared_ptr<const FunctionSummaries> Summaries)
    : Elsewhere(std::move(Summaries)), SM(Ctx.getSourceManager()) {
  CallCollector Collector(Calls, DependentCalls, Escaping);
  for (Decl *D : userDecls(Ctx))
    Collector.walkDecl(D);
  Collector.finish();
  for (const Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (const auto *FD = dyn_cast<FunctionDecl>(D);
        FD && FD->isMain() && FD->doesThisDeclarationHaveABody() &&
        SM.isInMainFile(SM.getExpansionLoc(FD->getLocation()))) {
      Main = FD;
      break;
    }
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

llvm::ArrayRef<const CallExpr *>
CallSites::dependentCallsOf(const FunctionDecl *FD) const {
  auto It = DependentCalls.find(FD->getCanonicalDecl());
  if (It == DependentCalls.end())
    return {};
  return It->second;
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
