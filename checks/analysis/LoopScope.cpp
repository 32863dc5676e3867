//===--- LoopScope.cpp - Which loop runs a statement every iteration ------===//

#include "checks/analysis/LoopScope.h"

#include "checks/analysis/ExprUtils.h"
#include "checks/analysis/Walk.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclObjC.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace torch_tidy::analysis {

bool isLoop(const Stmt *S) {
  return isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S);
}

const Stmt *loopBody(const Stmt *Loop) {
  if (const auto *For = dyn_cast<ForStmt>(Loop))
    return For->getBody();
  if (const auto *While = dyn_cast<WhileStmt>(Loop))
    return While->getBody();
  if (const auto *Do = dyn_cast<DoStmt>(Loop))
    return Do->getBody();
  if (const auto *Range = dyn_cast<CXXForRangeStmt>(Loop))
    return Range->getBody();
  return nullptr;
}

/// Whether \p Child, a direct child of \p Loop, runs on every iteration: the
/// body, a condition or an increment, but not a for's init statement nor a
/// range-for's range.
static bool runsEachIteration(const Stmt *Loop, const Stmt *Child) {
  if (const auto *For = dyn_cast<ForStmt>(Loop))
    return Child != For->getInit();
  if (const auto *Range = dyn_cast<CXXForRangeStmt>(Loop))
    return Child == Range->getBody();
  return true;
}

namespace {
/// Finds the places where a variable holding a lambda is called.
class CallsOf : public StmtWalk {
public:
  explicit CallsOf(const VarDecl *Var) : Var(Var) {}
  llvm::SmallVector<const CXXOperatorCallExpr *, 4> Calls;
  bool visit(Stmt *S) override {
    const auto *Call = dyn_cast<CXXOperatorCallExpr>(S);
    if (!Call || Call->getOperator() != OO_Call || Call->getNumArgs() == 0)
      return true;
    if (const auto *Ref =
            dyn_cast<DeclRefExpr>(Call->getArg(0)->IgnoreParenImpCasts()))
      if (Ref->getDecl() == Var)
        Calls.push_back(Call);
    return true;
  }

private:
  const VarDecl *Var;
};
} // namespace

/// Where the body of \p Lambda runs in the code around it: the call that
/// invokes it on the spot, the calls through the variable that holds it, or
/// nothing when it is handed elsewhere.
static llvm::SmallVector<const Stmt *, 4> invocationsOf(const LambdaExpr *Lambda,
                                                        ASTContext &Ctx) {
  llvm::SmallVector<const Stmt *, 4> Result;
  DynTypedNode Node = DynTypedNode::create(*Lambda);
  for (unsigned Depth = 0; Depth < 8; ++Depth) {
    auto Parents = Ctx.getParents(Node);
    if (Parents.empty())
      return Result;
    const DynTypedNode &Parent = Parents[0];
    if (const auto *Call = Parent.get<CXXOperatorCallExpr>()) {
      if (Call->getOperator() == OO_Call &&
          Call->getArg(0)->IgnoreImplicit() == Node.get<Expr>()->IgnoreImplicit())
        Result.push_back(Call);
      return Result;
    }
    if (const auto *Var = Parent.get<VarDecl>()) {
      if (const Stmt *Body = enclosingFunctionBody(Lambda, Ctx)) {
        CallsOf Finder(Var);
        Finder.walk(Body);
        Result.append(Finder.Calls.begin(), Finder.Calls.end());
      }
      return Result;
    }
    if (!Parent.get<Expr>())
      return Result;
    // Implicit casts, temporaries and the like around the lambda.
    if (!isa<ImplicitCastExpr, MaterializeTemporaryExpr, CXXBindTemporaryExpr,
             ExprWithCleanups, CXXConstructExpr, ParenExpr>(
            Parent.get<Expr>()))
      return Result;
    Node = Parent;
  }
  return Result;
}

static const Stmt *innermostLoopImpl(const Stmt *S, ASTContext &Ctx,
                                     unsigned LambdaDepth) {
  DynTypedNode Node = DynTypedNode::create(*S);
  while (true) {
    auto Parents = Ctx.getParents(Node);
    if (Parents.empty())
      return nullptr;
    const DynTypedNode &Parent = Parents[0];
    if (const auto *P = Parent.get<Stmt>()) {
      if (isLoop(P) && runsEachIteration(P, Node.get<Stmt>()))
        return P;
      if (const auto *Lambda = dyn_cast<LambdaExpr>(P)) {
        if (LambdaDepth > 4)
          return nullptr;
        for (const Stmt *Call : invocationsOf(Lambda, Ctx))
          if (const Stmt *Loop = innermostLoopImpl(Call, Ctx, LambdaDepth + 1))
            return Loop;
        return nullptr;
      }
    } else if (Parent.get<FunctionDecl>() || Parent.get<ObjCMethodDecl>() ||
               Parent.get<BlockDecl>()) {
      const auto *MD = Parent.get<CXXMethodDecl>();
      if (!MD || !MD->getParent()->isLambda())
        return nullptr;
    }
    Node = Parent;
  }
}

const Stmt *innermostLoop(const Stmt *S, ASTContext &Ctx) {
  return innermostLoopImpl(S, Ctx, 0);
}

llvm::SmallVector<const Stmt *, 4> runsAt(const Stmt *S, ASTContext &Ctx) {
  llvm::SmallVector<const Stmt *, 4> Result;
  llvm::SmallVector<std::pair<const Stmt *, unsigned>, 4> Work{{S, 0}};
  while (!Work.empty()) {
    auto [Here, Depth] = Work.pop_back_val();
    const LambdaExpr *Lambda =
        Depth < 4 ? nearestAncestor<LambdaExpr>(*Here, Ctx) : nullptr;
    if (!Lambda) {
      Result.push_back(Here);
      continue;
    }
    for (const Stmt *Call : invocationsOf(Lambda, Ctx))
      Work.push_back({Call, Depth + 1});
  }
  return Result;
}

const FunctionDecl *enclosingFunction(const Stmt *S, ASTContext &Ctx) {
  DynTypedNode Node = DynTypedNode::create(*S);
  while (true) {
    auto Parents = Ctx.getParents(Node);
    if (Parents.empty())
      return nullptr;
    Node = Parents[0];
    if (const auto *Lambda = Node.get<LambdaExpr>())
      return Lambda->getCallOperator();
    if (const auto *FD = Node.get<FunctionDecl>())
      return FD;
  }
}

llvm::SmallVector<const FunctionDecl *, 2>
instantiationsOf(const FunctionDecl *Pattern) {
  llvm::SmallVector<const FunctionDecl *, 2> Found;
  if (const FunctionTemplateDecl *Template =
          Pattern->getDescribedFunctionTemplate()) {
    for (const FunctionDecl *FD : Template->specializations())
      if (FD->isTemplateInstantiation() && FD->hasBody())
        Found.push_back(FD);
    return Found;
  }
  const auto *Method = dyn_cast<CXXMethodDecl>(Pattern);
  const ClassTemplateDecl *Class =
      Method ? Method->getParent()->getDescribedClassTemplate() : nullptr;
  if (!Class)
    return Found;
  const FunctionDecl *Canonical = Method->getCanonicalDecl();
  for (const ClassTemplateSpecializationDecl *Spec : Class->specializations())
    for (const Decl *D : Spec->decls()) {
      const auto *Member = dyn_cast<CXXMethodDecl>(D);
      const FunctionDecl *From =
          Member ? Member->getInstantiatedFromMemberFunction() : nullptr;
      if (From && From->getCanonicalDecl() == Canonical && Member->hasBody())
        Found.push_back(Member);
    }
  return Found;
}

bool inInstantiatedTemplate(const Stmt *S, ASTContext &Ctx) {
  const FunctionDecl *Function = enclosingFunction(S, Ctx);
  if (!Function || !Function->isDependentContext())
    return false;
  // From a lambda out to the function that defines it.
  const DeclContext *DC = Function;
  for (; DC; DC = DC->getParent()) {
    const auto *FD = dyn_cast<FunctionDecl>(DC);
    if (!FD)
      continue;
    const auto *Method = dyn_cast<CXXMethodDecl>(FD);
    if (Method && Method->getParent()->isLambda())
      continue;
    return !instantiationsOf(FD).empty();
  }
  return false;
}

const Stmt *enclosingFunctionBody(const Stmt *S, ASTContext &Ctx) {
  const FunctionDecl *FD = enclosingFunction(S, Ctx);
  return FD ? FD->getBody() : nullptr;
}

bool runsEveryIteration(const Stmt *S, const Stmt *Loop, ASTContext &Ctx) {
  const Stmt *Body = Loop ? loopBody(Loop) : nullptr;
  if (!S || !Body)
    return false;
  DynTypedNode Node = DynTypedNode::create(*S);
  for (unsigned Depth = 0; Depth < 256; ++Depth) {
    const Stmt *Child = Node.get<Stmt>();
    if (Child == Body)
      return true;
    auto Parents = Ctx.getParents(Node);
    if (Parents.empty())
      return false;
    const Stmt *Parent = Parents[0].get<Stmt>();
    if (!Parent || isa<LambdaExpr, CXXCatchStmt>(Parent))
      return false;
    if (const auto *If = dyn_cast<IfStmt>(Parent);
        If && Child != If->getCond() && Child != If->getInit() &&
        Child != If->getConditionVariableDeclStmt())
      return false;
    if (const auto *Switch = dyn_cast<SwitchStmt>(Parent);
        Switch && Child == Switch->getBody())
      return false;
    if (const auto *Cond = dyn_cast<AbstractConditionalOperator>(Parent);
        Cond && Child != Cond->getCond())
      return false;
    if (const auto *Logical = dyn_cast<BinaryOperator>(Parent);
        Logical && Logical->isLogicalOp() && Child == Logical->getRHS())
      return false;
    if (isLoop(Parent) && Parent != Loop && Child == loopBody(Parent))
      return false;
    Node = Parents[0];
  }
  return false;
}

} // namespace torch_tidy::analysis
