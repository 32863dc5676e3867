//===--- Optimizers.cpp - Which optimizer a call acts on, and what it holds ===//

#include "checks/analysis/Optimizers.h"

#include "checks/analysis/ExprUtils.h"
#include "checks/analysis/TorchTypes.h"
#include "checks/analysis/Walk.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

#include <optional>

using namespace clang;

namespace torch_tidy::analysis {

static const CXXMethodDecl *methodNamed(const CallExpr *Call,
                                        llvm::ArrayRef<llvm::StringRef> Names) {
  const auto *Member = dyn_cast_or_null<CXXMemberCallExpr>(Call);
  const CXXMethodDecl *MD = Member ? Member->getMethodDecl() : nullptr;
  if (!MD || !MD->getIdentifier() || !llvm::is_contained(Names, MD->getName()))
    return nullptr;
  return MD;
}

bool isOptimizerZeroGrad(const CallExpr *Call) {
  const CXXMethodDecl *MD = methodNamed(Call, {"zero_grad"});
  return MD && derivesFrom(MD->getParent(), "torch::optim::Optimizer");
}

bool isModuleZeroGrad(const CallExpr *Call) {
  const CXXMethodDecl *MD = methodNamed(Call, {"zero_grad"});
  return MD && isModuleClass(MD->getParent());
}

bool isGradientOf(const Expr *E) {
  for (unsigned Depth = 0; E && Depth < 4; ++Depth) {
    const auto *Call = dyn_cast<CXXMemberCallExpr>(stripWrappers(E));
    const CXXMethodDecl *MD = Call ? Call->getMethodDecl() : nullptr;
    if (!MD || !MD->getIdentifier() ||
        !isTensorType(QualType(MD->getParent()->getTypeForDecl(), 0)))
      return false;
    if (MD->getName() == "grad" || MD->getName() == "mutable_grad")
      return true;
    if (MD->getName() != "data" && MD->getName() != "detach")
      return false;
    E = Call->getImplicitObjectArgument();
  }
  return false;
}

bool clearsTensorGradient(const Expr *E) {
  E = stripWrappers(E);
  if (const auto *Assign = dyn_cast<CXXOperatorCallExpr>(E);
      Assign && Assign->getOperator() == OO_Equal && Assign->getNumArgs() == 2)
    return isGradientOf(Assign->getArg(0));
  const auto *Call = dyn_cast<CallExpr>(E);
  if (!methodNamed(Call, {"zero_", "reset", "fill_", "detach_"}))
    return false;
  return isGradientOf(cast<CXXMemberCallExpr>(Call)->getImplicitObjectArgument());
}

ObjectPath receiverPath(const CallExpr *Call) {
  const auto *Member = dyn_cast_or_null<CXXMemberCallExpr>(Call);
  if (!Member || !Member->getImplicitObjectArgument())
    return {};
  return objectPath(Member->getImplicitObjectArgument());
}

bool OptimizedModules::mayInclude(const ObjectPath &Module) const {
  if (!Known || !Module.Known)
    return true;
  return llvm::any_of(Paths, [&](const ObjectPath &P) {
    return !P.Known || overlap(P, Module) || mayAlias(P, Module);
  });
}

namespace {
/// The builds of one optimizer: the expressions whose value it is given.
class BuildFinder : public StmtWalk {
public:
  BuildFinder(const ValueDecl *Optimizer) : Optimizer(Optimizer) {}
  llvm::SmallVector<const Expr *, 4> Builds;
  bool visit(Stmt *S) override {
    if (auto *Op = dyn_cast<BinaryOperator>(S))
      return visitBinaryOperator(Op);
    if (auto *Op = dyn_cast<CXXOperatorCallExpr>(S))
      return visitOperatorCall(Op);
    if (auto *Call = dyn_cast<CXXMemberCallExpr>(S))
      return visitMemberCall(Call);
    return true;
  }

private:
  bool visitBinaryOperator(BinaryOperator *Op) {
    if (Op->getOpcode() == BO_Assign && names(Op->getLHS()))
      Builds.push_back(Op->getRHS());
    return true;
  }
  bool visitOperatorCall(CXXOperatorCallExpr *Op) {
    if (Op->getOperator() == OO_Equal && Op->getNumArgs() == 2 &&
        names(Op->getArg(0)))
      Builds.push_back(Op->getArg(1));
    return true;
  }
  bool visitMemberCall(CXXMemberCallExpr *Call) {
    // optimizer_.reset(new torch::optim::SGD(...))
    if (methodNamed(Call, {"reset"}) && Call->getNumArgs() == 1 &&
        names(Call->getImplicitObjectArgument()))
      Builds.push_back(Call->getArg(0));
    return true;
  }

  bool names(const Expr *E) const { return objectPath(E).leaf() == Optimizer; }
  const ValueDecl *Optimizer;
};

/// The module objects whose parameters an expression reads.
class ParameterReads : public StmtWalk {
public:
  llvm::SmallVector<ObjectPath, 2> Modules;
  bool visit(Stmt *S) override {
    auto *Call = dyn_cast<CXXMemberCallExpr>(S);
    if (!Call)
      return true;
    const CXXMethodDecl *MD = methodNamed(Call, {"parameters", "named_parameters"});
    if (MD && isModuleClass(MD->getParent()))
      Modules.push_back(objectPath(Call->getImplicitObjectArgument()));
    return true;
  }
};
} // namespace

/// Whether \p E builds nothing: `nullptr`, an empty handle.
static bool buildsNothing(const Expr *E) {
  E = stripWrappers(E);
  if (isa<CXXNullPtrLiteralExpr, GNUNullExpr>(E))
    return true;
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E))
    return Construct->getNumArgs() == 0 ||
           (Construct->getNumArgs() == 1 &&
            isa<CXXNullPtrLiteralExpr>(stripWrappers(Construct->getArg(0))));
  return false;
}

llvm::SmallVector<const Expr *, 4> valuesGiven(const ValueDecl *D) {
  llvm::SmallVector<const Expr *, 4> Values;
  BuildFinder Finder(D);
  if (const auto *Var = dyn_cast_or_null<VarDecl>(D)) {
    if (const Expr *Init = Var->getInit())
      Values.push_back(Init);
    if (const auto *FD =
            dyn_cast_or_null<FunctionDecl>(Var->getParentFunctionOrMethod()))
      Finder.walk(FD->getBody());
  } else if (const auto *Field = dyn_cast_or_null<FieldDecl>(D)) {
    if (const Expr *Init = Field->getInClassInitializer())
      Values.push_back(Init);
    const auto *Class = dyn_cast<CXXRecordDecl>(Field->getParent());
    if (!Class || !Class->hasDefinition())
      return Values;
    for (const CXXMethodDecl *Method : Class->methods()) {
      const FunctionDecl *Def = Method->getDefinition();
      if (!Def || !Def->hasBody())
        continue;
      if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Def))
        for (const CXXCtorInitializer *Init : Ctor->inits())
          if (Init->isWritten() && Init->getMember() == Field)
            Values.push_back(Init->getInit());
      Finder.walk(Def->getBody());
    }
  }
  Values.append(Finder.Builds.begin(), Finder.Builds.end());
  return Values;
}

OptimizedModules optimizedModules(const ObjectPath &Optimizer, ASTContext &Ctx) {
  OptimizedModules Result;
  const ValueDecl *D = Optimizer.leaf();
  if (!D || isa<ParmVarDecl>(D) || !isa<VarDecl, FieldDecl>(D))
    return Result;
  // Where a member of the class is built, `this` is the object the
  // optimizer path goes through.
  ObjectPath Owner = Optimizer;
  Owner.Decls.pop_back();
  bool Member = isa<FieldDecl>(D);
  if (Member) {
    const auto *Class = dyn_cast<CXXRecordDecl>(cast<FieldDecl>(D)->getParent());
    if (!Class || !Class->hasDefinition())
      return Result;
  }
  for (const Expr *Build : valuesGiven(D)) {
    if (buildsNothing(Build))
      continue;
    ParameterReads Reads;
    Reads.walk(Build);
    if (Reads.Modules.empty())
      return {}; // built from something else: not known
    for (ObjectPath &Module : Reads.Modules) {
      if (Member && Module.Known && !Module.Decls.empty() &&
          !Module.Decls.front()) {
        ObjectPath Rebased = Owner;
        Rebased.Decls.append(Module.Decls.begin() + 1, Module.Decls.end());
        Module = Rebased;
      }
      Result.Paths.push_back(Module);
    }
  }
  Result.Known = !Result.Paths.empty();
  (void)Ctx;
  return Result;
}

/// The arguments an optimizer is built with, when \p Build builds one:
/// `torch::optim::Adam opt(params, options)`, `torch::optim::SGD(...)`,
/// `new torch::optim::SGD(...)`, `std::make_unique<torch::optim::Adam>(...)`.
static std::optional<llvm::ArrayRef<const Expr *>> optimizerArguments(const Expr *Build) {
  Build = stripWrappers(Build);
  if (const auto *New = dyn_cast_or_null<CXXNewExpr>(Build))
    Build = New->getConstructExpr();
  if (const auto *Construct = dyn_cast_or_null<CXXConstructExpr>(Build)) {
    if (!derivesFrom(Construct->getConstructor()->getParent(), "torch::optim::Optimizer"))
      return std::nullopt;
    return llvm::ArrayRef<const Expr *>(Construct->getArgs(), Construct->getNumArgs());
  }
  const auto *Call = dyn_cast_or_null<CallExpr>(Build);
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  if (!FD || !FD->getIdentifier() || !FD->isInStdNamespace() ||
      !llvm::is_contained({"make_unique", "make_shared"}, FD->getName()))
    return std::nullopt;
  const TemplateArgumentList *Args = FD->getTemplateSpecializationArgs();
  if (!Args || Args->size() == 0 || Args->get(0).getKind() != TemplateArgument::Type)
    return std::nullopt;
  const CXXRecordDecl *Class = Args->get(0).getAsType()->getAsCXXRecordDecl();
  if (!Class || !derivesFrom(Class, "torch::optim::Optimizer"))
    return std::nullopt;
  return llvm::ArrayRef<const Expr *>(Call->getArgs(), Call->getNumArgs());
}

/// The learning rate that optimizer options written as \p Options set:
/// `AdamOptions(lr)`, `SGDOptions(lr).momentum(0.9)`, `AdamOptions().lr(lr)`,
/// or a number where the options are expected (they convert from it).
static const Expr *learningRateOfOptions(const Expr *Options) {
  for (unsigned Depth = 0; Options && Depth < 16; ++Depth) {
    Options = stripWrappers(Options);
    if (const auto *Call = dyn_cast_or_null<CXXMemberCallExpr>(Options)) {
      if (methodNamed(Call, {"lr"}) && Call->getNumArgs() == 1)
        return Call->getArg(0);
      Options = Call->getImplicitObjectArgument();
      continue;
    }
    const auto *Construct = dyn_cast_or_null<CXXConstructExpr>(Options);
    if (!Construct ||
        !derivesFrom(Construct->getConstructor()->getParent(),
                     "torch::optim::OptimizerOptions") ||
        Construct->getNumArgs() == 0 || isa<CXXDefaultArgExpr>(Construct->getArg(0)))
      return nullptr;
    const Expr *Arg = Construct->getArg(0);
    if (!Arg->getType()->isArithmeticType()) {
      Options = Arg; // a copy of other options
      continue;
    }
    return Arg;
  }
  return nullptr;
}

llvm::SmallVector<const Expr *, 2> learningRatesOf(const ObjectPath &Optimizer) {
  const ValueDecl *D = Optimizer.leaf();
  if (!D || isa<ParmVarDecl>(D) || !isa<VarDecl, FieldDecl>(D))
    return {};
  llvm::SmallVector<const Expr *, 2> Rates;
  for (const Expr *Build : valuesGiven(D)) {
    if (buildsNothing(Build))
      continue;
    std::optional<llvm::ArrayRef<const Expr *>> Args = optimizerArguments(Build);
    if (!Args || Args->size() < 2)
      return {};
    const Expr *Rate = learningRateOfOptions((*Args)[1]);
    if (!Rate)
      return {};
    Rates.push_back(Rate);
  }
  return Rates;
}

} // namespace torch_tidy::analysis
