//===--- ObjectPaths.cpp - Which object an expression names ---------------===//

#include "checks/analysis/ObjectPaths.h"

#include "checks/analysis/ExprUtils.h"
#include "checks/analysis/TorchTypes.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace torch_tidy::analysis {

std::string ObjectPath::str() const {
  if (!Known)
    return "?";
  std::string Text;
  for (const ValueDecl *D : Decls) {
    if (!Text.empty())
      Text += ".";
    Text += D ? D->getNameAsString() : "this";
  }
  return Text;
}

/// The object a handle expression refers to: `h` for `h->`, `*h`,
/// `h.ptr()`, `h.get()`; null when \p E is no such expression.
static const Expr *throughHandle(const Expr *E) {
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
      Op && Op->getNumArgs() == 1 &&
      (Op->getOperator() == OO_Arrow || Op->getOperator() == OO_Star))
    return Op->getArg(0);
  if (const auto *Unary = dyn_cast<UnaryOperator>(E);
      Unary && (Unary->getOpcode() == UO_Deref || Unary->getOpcode() == UO_AddrOf))
    return Unary->getSubExpr();
  if (const auto *Call = dyn_cast<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *MD = Call->getMethodDecl();
    if (MD && MD->getIdentifier() && Call->getNumArgs() == 0 &&
        (MD->getName() == "ptr" || MD->getName() == "get"))
      return Call->getImplicitObjectArgument();
  }
  return nullptr;
}

ObjectPath objectPath(const Expr *Object) {
  ObjectPath Path;
  llvm::SmallVector<const ValueDecl *, 4> Reversed;
  const Expr *E = Object;
  for (unsigned Depth = 0; E && Depth < 12; ++Depth) {
    E = stripWrappers(E);
    if (const Expr *Inner = throughHandle(E)) {
      E = Inner;
      continue;
    }
    if (const auto *Member = dyn_cast<MemberExpr>(E)) {
      if (!isa<FieldDecl, VarDecl>(Member->getMemberDecl()))
        return Path;
      Reversed.push_back(Member->getMemberDecl());
      E = Member->getBase();
      continue;
    }
    if (isa<CXXThisExpr>(E)) {
      Reversed.push_back(nullptr);
      break;
    }
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      if (!isa<VarDecl, BindingDecl>(Ref->getDecl()))
        return Path;
      Reversed.push_back(Ref->getDecl());
      break;
    }
    return Path;
  }
  if (Reversed.empty())
    return Path;
  Path.Decls.assign(Reversed.rbegin(), Reversed.rend());
  Path.Known = true;
  return Path;
}

bool ownsOrIs(const ObjectPath &Owner, const ObjectPath &Part) {
  if (!Owner.Known || !Part.Known || Owner.Decls.size() > Part.Decls.size())
    return false;
  return std::equal(Owner.Decls.begin(), Owner.Decls.end(), Part.Decls.begin());
}

bool overlap(const ObjectPath &A, const ObjectPath &B) {
  return ownsOrIs(A, B) || ownsOrIs(B, A);
}

ObjectPath asCallerNames(const ObjectPath &InCallee, const CallExpr *Call) {
  ObjectPath Unknown;
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!InCallee.Known || InCallee.Decls.empty() || !Callee)
    return Unknown;
  const ValueDecl *Root = InCallee.Decls.front();
  ObjectPath Start;
  if (const auto *Param = dyn_cast_or_null<ParmVarDecl>(Root)) {
    // A lambda's call operator and a method called as an operator take the
    // object as the call's first argument.
    if (Param->getDeclContext() != Callee->getDefinition() &&
        Param->getDeclContext() != Callee)
      return Unknown;
    const Expr *Arg =
        argumentFor(Call, Param->getFunctionScopeIndex(), /*Defaults=*/true);
    if (!Arg)
      return Unknown;
    Start = objectPath(Arg);
  } else if (!Root) {
    const auto *MD = dyn_cast<CXXMethodDecl>(Callee);
    if (MD && MD->getParent()->isLambda())
      Start.Decls.push_back(nullptr), Start.Known = true; // the enclosing `this`
    else if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call))
      Start = objectPath(Member->getImplicitObjectArgument());
    else
      return Unknown;
  } else if (const auto *Var = dyn_cast<VarDecl>(Root);
             Var && Var->isLocalVarDecl() &&
             Var->getParentFunctionOrMethod() ==
                 static_cast<const DeclContext *>(Callee->getDefinition())) {
    return Unknown; // the callee's own local
  } else {
    return InCallee; // a global, or what a lambda captured by reference
  }
  if (!Start.Known)
    return Unknown;
  Start.Decls.append(InCallee.Decls.begin() + 1, InCallee.Decls.end());
  return Start;
}

/// Whether \p D, the start of a path, is a local that refers to an object
/// declared elsewhere.
static bool refersElsewhere(const ValueDecl *D) {
  const auto *Var = dyn_cast_or_null<VarDecl>(D);
  if (!Var || isa<ParmVarDecl>(Var) || !Var->isLocalVarDecl())
    return false;
  QualType T = Var->getType();
  if (T->isReferenceType() || T->isPointerType())
    return true;
  // A copy of a handle shares its object: `auto net = model;`,
  // `torch::nn::Linear fc = model->fc;`, `auto opt = trainer.optimizer;`.
  const Expr *Init = Var->getInit();
  if (!Init || !objectPath(Init).Known)
    return false;
  const CXXRecordDecl *RD = recordOf(T);
  if (!RD)
    return false;
  return isSmartPointer(RD) || derivesFrom(RD, "torch::nn::ModuleHolder");
}

bool mayAlias(const ObjectPath &A, const ObjectPath &B) {
  if (!A.Known || !B.Known || A.Decls.empty() || B.Decls.empty())
    return false;
  return refersElsewhere(A.Decls.front()) || refersElsewhere(B.Decls.front());
}

} // namespace torch_tidy::analysis
