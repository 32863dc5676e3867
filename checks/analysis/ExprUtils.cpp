//===--- ExprUtils.cpp - Small questions about expressions ----------------===//

#include "checks/analysis/ExprUtils.h"

#include "checks/analysis/Walk.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace torch_tidy::analysis {

const Expr *stripWrappers(const Expr *E) {
  while (E) {
    const Expr *Next = E->IgnoreParenImpCasts();
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(Next))
      Next = M->getSubExpr();
    else if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(Next))
      Next = B->getSubExpr();
    else if (const auto *C = dyn_cast<ExprWithCleanups>(Next))
      Next = C->getSubExpr();
    else if (const auto *F = dyn_cast<CXXFunctionalCastExpr>(Next))
      Next = F->getSubExpr();
    else if (const auto *Construct = dyn_cast<CXXConstructExpr>(Next);
             Construct && Construct->getNumArgs() == 1 &&
             Construct->getConstructor()->isCopyOrMoveConstructor())
      Next = Construct->getArg(0);
    if (Next == E)
      return E;
    E = Next;
  }
  return E;
}

const VarDecl *localStructOf(const Expr *E) {
  const auto *Member = dyn_cast_or_null<MemberExpr>(stripWrappers(E));
  if (!Member || !isa<FieldDecl>(Member->getMemberDecl()))
    return nullptr;
  for (unsigned Depth = 0; Member && Depth < 8; ++Depth) {
    if (Member->isArrow())
      return nullptr;
    const Expr *Base = stripWrappers(Member->getBase());
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Base)) {
      const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
      return Var && Var->hasLocalStorage() &&
                     !Var->getType()->isReferenceType()
                 ? Var
                 : nullptr;
    }
    Member = dyn_cast<MemberExpr>(Base);
  }
  return nullptr;
}

const ValueDecl *referencedDecl(const Expr *E) {
  E = stripWrappers(E);
  if (!E)
    return nullptr;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    return Ref->getDecl();
  if (const auto *Member = dyn_cast<MemberExpr>(E))
    return Member->getMemberDecl();
  return nullptr;
}

/// The call to std::tie or std::forward_as_tuple that \p E is, if it is one.
static const CallExpr *tieCall(const Expr *E) {
  E = stripWrappers(E);
  if (const auto *Construct = dyn_cast_or_null<CXXConstructExpr>(E))
    if (Construct->getNumArgs() == 1)
      E = stripWrappers(Construct->getArg(0));
  const auto *Call = dyn_cast_or_null<CallExpr>(E);
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  if (!FD)
    return nullptr;
  std::string Name = FD->getQualifiedNameAsString();
  return Name == "std::tie" || Name == "std::forward_as_tuple" ? Call : nullptr;
}

static void collectTied(const Expr *E, bool Nested,
                        llvm::SmallVectorImpl<std::pair<const ValueDecl *, int>> &Out) {
  const CallExpr *Call = tieCall(E);
  if (!Call)
    return;
  for (unsigned I = 0, N = Call->getNumArgs(); I != N; ++I) {
    const Expr *Arg = Call->getArg(I);
    if (tieCall(Arg)) {
      collectTied(Arg, /*Nested=*/true, Out);
      continue;
    }
    if (const ValueDecl *D = referencedDecl(Arg))
      Out.push_back({D, Nested ? -1 : static_cast<int>(I)});
  }
}

llvm::SmallVector<std::pair<const ValueDecl *, int>, 4>
tiedElements(const Expr *E) {
  llvm::SmallVector<std::pair<const ValueDecl *, int>, 4> Result;
  collectTied(E, /*Nested=*/false, Result);
  return Result;
}

llvm::SmallVector<const VarDecl *, 2> localStructsWrittenBy(const Expr *Target) {
  llvm::SmallVector<const VarDecl *, 2> Result;
  if (const VarDecl *Whole = localStructOf(Target))
    Result.push_back(Whole);
  if (const CallExpr *Call = tieCall(Target))
    for (const Expr *Arg : Call->arguments())
      for (const VarDecl *Whole : localStructsWrittenBy(Arg))
        if (!llvm::is_contained(Result, Whole))
          Result.push_back(Whole);
  return Result;
}

llvm::SmallVector<const ValueDecl *, 4> tiedDecls(const Expr *E) {
  llvm::SmallVector<const ValueDecl *, 4> Result;
  for (auto [D, Element] : tiedElements(E))
    Result.push_back(D);
  return Result;
}

/// Whether \p MD, a method of the user's class with its body in view,
/// returns a part of its own object: every return statement gives a member
/// of `*this`, an element or a view of one (`Tensor &obs(int i) { return
/// obs_[i]; }`, `Tensor values() { return values_; }`, a handle to the same
/// storage). A write through what it returns writes into the object.
static bool returnsPartOfObject(const CXXMethodDecl *MD, unsigned Depth) {
  if (!MD || MD->isStatic() || Depth > 2)
    return false;
  const FunctionDecl *Def = MD->getDefinition();
  if (!Def || !Def->hasBody() ||
      MD->getASTContext().getSourceManager().isInSystemHeader(Def->getLocation()))
    return false;
  auto Returned = returnedValues(Def->getBody());
  return !Returned.empty() && llvm::all_of(Returned, [&](const Expr *Value) {
    const Expr *Base = containerOf(Value);
    if (const auto *Member = dyn_cast<MemberExpr>(Base))
      return isa<CXXThisExpr>(stripWrappers(Member->getBase()));
    if (const auto *Call = dyn_cast<CXXMemberCallExpr>(Base))
      return isa<CXXThisExpr>(stripWrappers(Call->getImplicitObjectArgument())) &&
             returnsPartOfObject(Call->getMethodDecl(), Depth + 1);
    return false;
  });
}

const Expr *containerOf(const Expr *E) {
  for (unsigned Depth = 0; Depth < 8; ++Depth) {
    const Expr *S = stripWrappers(E);
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S);
        Op && Op->getOperator() == OO_Subscript) {
      E = Op->getArg(0);
      continue;
    }
    if (const auto *Sub = dyn_cast<ArraySubscriptExpr>(S)) {
      E = Sub->getBase();
      continue;
    }
    if (const auto *Call = dyn_cast<CXXMemberCallExpr>(S)) {
      const CXXMethodDecl *MD = Call->getMethodDecl();
      // `v.at(i)`, and `this->operator[](k)` spelled as a call.
      if (MD && ((MD->getIdentifier() &&
                  llvm::is_contained({"at", "index", "select", "narrow",
                                      "slice", "front", "back"},
                                     MD->getName())) ||
                 MD->getOverloadedOperator() == OO_Subscript)) {
        E = Call->getImplicitObjectArgument();
        continue;
      }
      // An accessor of the user's class that hands out a part of its
      // object: what it returns is held by the object.
      if (MD && !isa<CXXThisExpr>(stripWrappers(Call->getImplicitObjectArgument())) &&
          returnsPartOfObject(MD, 0)) {
        E = Call->getImplicitObjectArgument();
        continue;
      }
    }
    return S;
  }
  return stripWrappers(E);
}

std::vector<Decl *> userDecls(ASTContext &Ctx) {
  std::vector<Decl *> Scope = Ctx.getTraversalScope();
  if (!(Scope.size() == 1 && Scope.front() == Ctx.getTranslationUnitDecl()))
    return Scope;
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<Decl *> Result;
  for (Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (!SM.isInSystemHeader(D->getLocation()))
      Result.push_back(D);
  return Result;
}

bool contains(const Stmt *Outer, const Stmt *Inner) {
  if (!Outer || !Inner)
    return false;
  if (Outer == Inner)
    return true;
  for (const Stmt *Child : Outer->children())
    if (contains(Child, Inner))
      return true;
  return false;
}

namespace {
class MentionFinder : public StmtWalk {
public:
  explicit MentionFinder(const ValueDecl *D) : D(D) {}
  bool Found = false;
  bool visit(Stmt *S) override {
    if (const auto *Ref = dyn_cast<DeclRefExpr>(S)) {
      Found |= Ref->getDecl() == D;
      return !Found;
    }
    if (const auto *Member = dyn_cast<MemberExpr>(S)) {
      Found |= Member->getMemberDecl() == D;
      return !Found;
    }
    return true;
  }

private:
  const ValueDecl *D;
};
} // namespace

namespace {
class ReturnCollector : public StmtWalk {
public:
  llvm::SmallVector<const Expr *, 4> Values;
  bool enter(Stmt *S) override { return !isa<LambdaExpr>(S); }
  bool visit(Stmt *S) override {
    const auto *Return = dyn_cast<ReturnStmt>(S);
    if (const Expr *Value = Return ? Return->getRetValue() : nullptr)
      Values.push_back(Value);
    return true;
  }
};
} // namespace

llvm::SmallVector<const Expr *, 4> returnedValues(const Stmt *Body) {
  ReturnCollector Returns;
  if (Body)
    Returns.walk(Body);
  return Returns.Values;
}

bool mentions(const Stmt *S, const ValueDecl *D) {
  MentionFinder Finder(D);
  Finder.walk(S);
  return Finder.Found;
}

ClosureHandOff
closureHandOff(const LambdaExpr *Lambda, ASTContext &Ctx,
               llvm::function_ref<bool(const CXXConstructExpr *)> Takes) {
  ClosureHandOff Result;
  DynTypedNode Node = DynTypedNode::create(*Lambda);
  for (unsigned Depth = 0; Depth < 8; ++Depth) {
    auto Parents = Ctx.getParents(Node);
    if (Parents.empty())
      return Result;
    Node = Parents[0];
    if (const auto *Built = Node.get<CXXConstructExpr>()) {
      if (Takes(Built)) {
        Result.Construct = Built;
        return Result;
      }
      continue;
    }
    if (const auto *Call = Node.get<CallExpr>()) {
      Result.Call = Call;
      return Result;
    }
    if (!Node.get<Expr>())
      return Result;
  }
  return Result;
}

const Expr *argumentFor(const CallExpr *Call, unsigned Index, bool Defaults) {
  // a(x) through a member operator(): the object is argument 0.
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call))
    if (const auto *MD = dyn_cast_or_null<CXXMethodDecl>(Op->getDirectCallee());
        MD && !MD->isStatic())
      ++Index;
  if (Index >= Call->getNumArgs())
    return nullptr;
  const Expr *Arg = Call->getArg(Index);
  return isa<CXXDefaultArgExpr>(Arg) && !Defaults ? nullptr : Arg;
}

const LambdaExpr *lambdaHeldBy(const Expr *E) {
  auto Unwrap = [](const Expr *E) {
    // The std::function the closure converts to, and what is around it.
    for (unsigned Depth = 0; E && Depth < 16; ++Depth) {
      E = stripWrappers(E);
      const auto *Construct = dyn_cast_or_null<CXXConstructExpr>(E);
      if (!Construct || Construct->getNumArgs() != 1)
        return E;
      E = Construct->getArg(0);
    }
    return E;
  };
  E = Unwrap(E);
  if (const auto *Lambda = dyn_cast_or_null<LambdaExpr>(E))
    return Lambda;
  const auto *Ref = dyn_cast_or_null<DeclRefExpr>(E);
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!Var || !Var->hasLocalStorage() || isa<ParmVarDecl>(Var) ||
      !Var->getInit())
    return nullptr;
  return dyn_cast_or_null<LambdaExpr>(Unwrap(Var->getInit()));
}

std::optional<unsigned> stdGetIndex(const FunctionDecl *FD) {
  if (!FD || !FD->isInStdNamespace() || !FD->getIdentifier() ||
      FD->getName() != "get")
    return std::nullopt;
  const TemplateArgumentList *Args = FD->getTemplateSpecializationArgs();
  if (!Args || Args->size() == 0 ||
      Args->get(0).getKind() != TemplateArgument::Integral)
    return std::nullopt;
  return static_cast<unsigned>(Args->get(0).getAsIntegral().getZExtValue());
}

bool isMutableReference(QualType T) {
  return T->isLValueReferenceType() &&
         !T.getNonReferenceType().isConstQualified();
}

bool isMutablePointer(QualType T) {
  return T->isPointerType() && !T->getPointeeType().isConstQualified();
}

} // namespace torch_tidy::analysis
