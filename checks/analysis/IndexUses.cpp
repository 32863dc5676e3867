//===--- IndexUses.cpp - Values a function uses as indices ----------------===//

#include "checks/analysis/IndexUses.h"
#include "checks/analysis/ExprUtils.h"
#include "checks/analysis/TorchTypes.h"
#include "checks/analysis/Walk.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace torch_tidy::analysis {

namespace {

/// The tensors written in an index list or passed as one index: the
/// leaves of its braces and TensorIndex constructions.
void indexLeaves(const Expr *E, llvm::SmallVectorImpl<const Expr *> &Out,
                 unsigned Depth = 0) {
  if (!E || Depth > 8)
    return;
  E = E->IgnoreParenImpCasts();
  if (const auto *Temp = dyn_cast<MaterializeTemporaryExpr>(E))
    return indexLeaves(Temp->getSubExpr(), Out, Depth + 1);
  if (const auto *Bind = dyn_cast<CXXBindTemporaryExpr>(E))
    return indexLeaves(Bind->getSubExpr(), Out, Depth + 1);
  if (const auto *Std = dyn_cast<CXXStdInitializerListExpr>(E))
    return indexLeaves(Std->getSubExpr(), Out, Depth + 1);
  if (const auto *List = dyn_cast<InitListExpr>(E)) {
    for (const Expr *Init : List->inits())
      indexLeaves(Init, Out, Depth + 1);
    return;
  }
  if (isTensorType(E->getType())) {
    Out.push_back(E);
    return;
  }
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E))
    for (const Expr *Arg : Construct->arguments())
      indexLeaves(Arg, Out, Depth + 1);
}

/// The argument of a tensor method that LibTorch takes as an index or a
/// mask, for the methods that take one; -1 for others.
int indexArgument(llvm::StringRef Name) {
  if (llvm::is_contained({"index", "index_put_", "index_put", "take",
                          "masked_fill", "masked_fill_", "masked_select",
                          "masked_scatter", "masked_scatter_"},
                         Name))
    return 0;
  if (llvm::is_contained({"index_select", "gather", "scatter", "scatter_",
                          "scatter_add", "scatter_add_", "scatter_reduce",
                          "scatter_reduce_", "index_add", "index_add_",
                          "index_copy", "index_copy_", "index_fill",
                          "index_fill_"},
                         Name))
    return 1;
  return -1;
}

class IndexFinder : public StmtWalk {
public:
  explicit IndexFinder(
      llvm::DenseMap<const VarDecl *, llvm::SmallVector<const Expr *, 2>> &Uses)
      : StmtWalk(withoutLambdas()), Uses(Uses) {}

protected:
  bool visit(Stmt *S) override {
    llvm::SmallVector<const Expr *, 4> Leaves;
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S)) {
      // t[i] with i a tensor.
      if (Op->getOperator() == OO_Subscript && Op->getNumArgs() == 2 &&
          isTensorType(Op->getArg(0)->getType()))
        indexLeaves(Op->getArg(1), Leaves);
    } else if (const auto *Call = dyn_cast<CXXMemberCallExpr>(S)) {
      const CXXMethodDecl *MD = Call->getMethodDecl();
      if (MD && MD->getIdentifier() &&
          isTensorType(Call->getImplicitObjectArgument()->getType())) {
        int Index = indexArgument(MD->getName());
        if (Index >= 0 && static_cast<unsigned>(Index) < Call->getNumArgs())
          indexLeaves(Call->getArg(Index), Leaves);
      }
    } else if (const auto *Call = dyn_cast<CallExpr>(S)) {
      // torch::where(condition, ...): a boolean condition.
      const FunctionDecl *FD = Call->getDirectCallee();
      if (FD && FD->getIdentifier() && FD->getName() == "where" &&
          isTorchFunction(FD) && Call->getNumArgs() > 0)
        indexLeaves(Call->getArg(0), Leaves);
    }
    for (const Expr *Leaf : Leaves) {
      // An element or a part of a variable: the variable holds the same.
      const Expr *Whole = stripWrappers(containerOf(Leaf));
      const auto *Var = dyn_cast_or_null<VarDecl>(referencedDecl(Whole));
      if (Var && Var->hasLocalStorage() && !Var->getType()->isReferenceType())
        Uses[Var].push_back(Whole);
    }
    return true;
  }

private:
  static Options withoutLambdas() {
    Options O;
    O.LambdaBodies = false;
    return O;
  }
  llvm::DenseMap<const VarDecl *, llvm::SmallVector<const Expr *, 2>> &Uses;
};

} // namespace

void IndexUses::scan(const FunctionDecl *Function) {
  if (!Scanned.insert(Function).second || !Function->getBody())
    return;
  IndexFinder Finder(Uses);
  Finder.walk(Function->getBody());
}

llvm::ArrayRef<const Expr *> IndexUses::usesOf(const FunctionDecl *Function,
                                               const VarDecl *Var) {
  scan(Function);
  auto It = Uses.find(Var);
  if (It == Uses.end())
    return {};
  return It->second;
}

bool IndexUses::usedAsIndex(const FunctionFlow &Flow, const VarDecl *Var,
                            const Definition &Def) {
  llvm::ArrayRef<const Expr *> At = usesOf(Flow.function(), Var);
  if (At.empty())
    return false;
  auto It = Reaching.find(Var);
  if (It == Reaching.end()) {
    llvm::SmallVector<const Stmt *, 4> Found;
    for (const Expr *Use : At)
      for (const Definition &D : Flow.reachingDefinitions(Var, Use))
        if (!llvm::is_contained(Found, D.At))
          Found.push_back(D.At);
    It = Reaching.try_emplace(Var, std::move(Found)).first;
  }
  return llvm::is_contained(It->second, Def.At);
}

} // namespace torch_tidy::analysis
