//===--- History.cpp - H: does this expression carry autograd history? ----===//

#include "checks/analysis/History.h"

#include "checks/analysis/ExprUtils.h"
#include "checks/analysis/LoopScope.h"
#include "checks/analysis/TorchTypes.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace torch_tidy::analysis {

bool isModuleClass(const CXXRecordDecl *RD) {
  return isOrDerivesFrom(RD, [](const CXXRecordDecl *C) {
    std::string Name = C->getQualifiedNameAsString();
    return Name == "torch::nn::Module" || Name == "torch::jit::Module" ||
           Name == "torch::nn::AnyModule" || Name == "torch::nn::ModuleHolder";
  });
}

bool isForwardCall(const Expr *E) {
  E = stripWrappers(E);
  if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(E))
    return Op->getOperator() == OO_Call && Op->getNumArgs() > 0 &&
           isModuleClass(recordOf(Op->getArg(0)->getType(), /*ThroughPointer=*/true));
  if (const auto *Call = dyn_cast_or_null<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *MD = Call->getMethodDecl();
    if (!MD || !MD->getIdentifier() ||
        !llvm::is_contained({"forward", "run_method"}, MD->getName()))
      return false;
    return isModuleClass(MD->getParent()) ||
           isModuleClass(recordOf(Call->getImplicitObjectArgument()->getType(),
                                    /*ThroughPointer=*/true));
  }
  return false;
}

/// Tensor operations whose result carries no history.
static bool isCutName(llvm::StringRef Name) {
  return llvm::is_contained(
      {"detach", "detach_", "item", "data", "argmax", "argmin", "argsort",
       "eq", "ne", "lt", "gt", "le", "ge", "greater", "less", "greater_equal",
       "less_equal", "equal", "sizes", "size", "numel", "dim", "isnan",
       "isinf", "isfinite", "logical_not", "logical_and", "logical_or",
       "logical_xor", "nonzero", "any", "all", "grad", "is_nonzero",
       "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not",
       "floor_divide", "zeros_like", "ones_like", "empty_like", "full_like",
       "rand_like", "randn_like", "randint_like", "multinomial", "bernoulli",
       "randperm", "long", "int", "bool", "byte", "char", "short"},
      Name);
}

/// Functions that make a new tensor, with history only if asked for.
static bool isFactory(llvm::StringRef Name) {
  return llvm::is_contained({"zeros", "ones", "empty", "full", "rand", "randn",
                             "randint", "arange", "range", "linspace",
                             "logspace", "eye", "tensor", "from_blob",
                             "normal", "scalar_tensor"},
                            Name);
}

static bool inTorchNamespace(const FunctionDecl *FD) {
  std::string Name = FD->getQualifiedNameAsString();
  llvm::StringRef N(Name);
  return N.starts_with("at::") || N.starts_with("torch::") ||
         N.starts_with("c10::");
}

namespace {
/// Finds `.requires_grad(true)` / `torch::requires_grad()` in an argument.
class RequiresGradFinder : public RecursiveASTVisitor<RequiresGradFinder> {
public:
  explicit RequiresGradFinder(const ASTContext &Ctx) : Ctx(Ctx) {}
  bool Found = false;
  bool VisitCallExpr(CallExpr *Call) {
    const FunctionDecl *FD = Call->getDirectCallee();
    if (!FD || !FD->getIdentifier() || FD->getName() != "requires_grad")
      return true;
    if (Call->getNumArgs() == 0 ||
        isa<CXXDefaultArgExpr>(Call->getArg(Call->getNumArgs() - 1)))
      Found = true;
    else
      Found |= evaluateOptionalBool(Call->getArg(Call->getNumArgs() - 1), Ctx) !=
               OptionalBool::False;
    return !Found;
  }

private:
  const ASTContext &Ctx;
};

/// The values a function returns.
class ReturnCollector : public RecursiveASTVisitor<ReturnCollector> {
public:
  llvm::SmallVector<const Expr *, 4> Values;
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool VisitReturnStmt(ReturnStmt *Return) {
    if (const Expr *Value = Return->getRetValue())
      Values.push_back(Value);
    return true;
  }
};
} // namespace

/// Whether \p E is a dtype constant naming an integer or bool type.
static bool isIntegralDtype(const Expr *E, const ASTContext &Ctx) {
  QualType T = E->getType().getNonReferenceType().getCanonicalType();
  const auto *Enum = T->getAs<EnumType>();
  if (!Enum || Enum->getDecl()->getName() != "ScalarType")
    return false;
  Expr::EvalResult Result;
  if (!E->EvaluateAsInt(Result, Ctx))
    return false;
  llvm::APSInt Value = Result.Val.getInt();
  for (const EnumConstantDecl *Constant : Enum->getDecl()->enumerators())
    if (llvm::APSInt::isSameValue(Constant->getInitVal(), Value))
      return llvm::is_contained({"Byte", "Char", "Short", "Int", "Long", "Bool",
                                 "UInt16", "UInt32", "UInt64", "QInt8",
                                 "QUInt8", "QInt32"},
                                Constant->getName());
  return false;
}

bool cutsHistory(const Expr *E, const ASTContext &Ctx) {
  const auto *Call = dyn_cast_or_null<CallExpr>(stripWrappers(E));
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  if (!FD)
    return false;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call))
    return llvm::is_contained({OO_EqualEqual, OO_ExclaimEqual, OO_Less,
                               OO_Greater, OO_LessEqual, OO_GreaterEqual,
                               OO_Exclaim, OO_AmpAmp, OO_PipePipe},
                              Op->getOperator());
  llvm::StringRef Name = FD->getIdentifier() ? FD->getName() : "";
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call)) {
    if (!isTensorType(Member->getImplicitObjectArgument()->getType()))
      return false;
    if (isCutName(Name))
      return true;
    return (Name == "to" || Name == "type" || Name == "toType") &&
           llvm::any_of(Call->arguments(), [&](const Expr *Arg) {
             return isIntegralDtype(Arg, Ctx);
           });
  }
  return inTorchNamespace(FD) && isCutName(Name);
}

static Carries join(Carries A, Carries B) {
  if (A == Carries::Yes || B == Carries::Yes)
    return Carries::Yes;
  if (A == Carries::Unknown || B == Carries::Unknown)
    return Carries::Unknown;
  return Carries::No;
}

static bool mayHoldHistory(QualType T) {
  if (holdsTensors(T))
    return true;
  const CXXRecordDecl *RD = recordOf(T, /*ThroughPointer=*/true);
  return RD && (RD->getQualifiedNameAsString() == "c10::IValue" ||
                RD->getQualifiedNameAsString() == "c10::ivalue::Tuple");
}

HistoryAnalysis::HistoryAnalysis(ASTContext &Ctx, const CallSites *Callers,
                                 bool AssumeUnknownCarries)
    : Ctx(Ctx), Callers(Callers), AssumeUnknownCarries(AssumeUnknownCarries) {}

bool HistoryAnalysis::carriesHistory(const Expr *E) {
  Carries C = history(E);
  return C == Carries::Yes || (C == Carries::Unknown && AssumeUnknownCarries);
}

Carries HistoryAnalysis::history(const Expr *E) { return of(E); }

const FunctionFlow *HistoryAnalysis::flowAt(const Stmt *S) {
  const FunctionDecl *FD = enclosingFunction(S, Ctx);
  if (!FD)
    return nullptr;
  auto &Flow = Flows[FD];
  if (!Flow)
    Flow = std::make_unique<FunctionFlow>(FD, Ctx);
  return Flow.get();
}

bool HistoryAnalysis::guarded(const Expr *E) {
  return gradStateAt(E, Ctx, Callers) == GradState::NotRecording;
}

Carries HistoryAnalysis::anyOf(llvm::ArrayRef<const Expr *> Exprs) {
  Carries Result = Carries::No;
  for (const Expr *E : Exprs) {
    Result = join(Result, of(E));
    if (Result == Carries::Yes)
      break;
  }
  return Result;
}

Carries HistoryAnalysis::of(const Expr *E) {
  if (!E)
    return Carries::No;
  E = stripWrappers(E);
  if (!mayHoldHistory(E->getType()) && !isa<InitListExpr>(E))
    return Carries::No;
  bool Cacheable = CallStack.empty();
  if (Cacheable) {
    auto It = Cache.find(E);
    if (It != Cache.end())
      return It->second;
  }
  if (!InProgress.insert(E).second) {
    ++CycleHits;
    return Carries::No; // a cycle through a loop: nothing new on this path
  }
  unsigned CyclesBefore = CycleHits;
  Carries Result = Carries::Unknown;
  if (const ValueDecl *D = referencedDecl(E))
    Result = ofDecl(D, E);
  else if (const auto *Call = dyn_cast<CallExpr>(E))
    Result = guarded(E) ? Carries::No : ofCall(Call);
  else if (const auto *Construct = dyn_cast<CXXConstructExpr>(E))
    Result = guarded(E) ? Carries::No
                        : anyOf(llvm::ArrayRef(Construct->getArgs(),
                                               Construct->getNumArgs()));
  else if (const auto *List = dyn_cast<InitListExpr>(E))
    Result = anyOf(llvm::ArrayRef(List->getInits(), List->getNumInits()));
  else if (const auto *StdList = dyn_cast<CXXStdInitializerListExpr>(E))
    Result = of(StdList->getSubExpr());
  else if (const auto *Cond = dyn_cast<AbstractConditionalOperator>(E))
    Result = anyOf({Cond->getTrueExpr(), Cond->getFalseExpr()});
  else if (const auto *Sub = dyn_cast<ArraySubscriptExpr>(E))
    Result = of(Sub->getBase());
  else if (isa<CXXDefaultArgExpr, CXXScalarValueInitExpr, ImplicitValueInitExpr>(E))
    Result = Carries::No;
  InProgress.erase(E);
  if (Cacheable && (CycleHits == CyclesBefore || Result == Carries::Yes))
    Cache[E] = Result;
  return Result;
}

Carries HistoryAnalysis::ofCall(const CallExpr *Call) {
  if (isForwardCall(Call))
    return Carries::Yes;
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD)
    return Carries::Unknown;
  llvm::StringRef Name = FD->getIdentifier() ? FD->getName() : "";

  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call)) {
    switch (Op->getOperator()) {
    case OO_EqualEqual:
    case OO_ExclaimEqual:
    case OO_Less:
    case OO_Greater:
    case OO_LessEqual:
    case OO_GreaterEqual:
    case OO_Exclaim:
    case OO_AmpAmp:
    case OO_PipePipe:
      return Carries::No;
    case OO_Subscript:
      return of(Op->getArg(0));
    case OO_Call:
      return Carries::Unknown; // a lambda or functor that is not a module
    default:
      return anyOf(llvm::ArrayRef(Op->getArgs(), Op->getNumArgs()));
    }
  }

  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call)) {
    const Expr *Object = Member->getImplicitObjectArgument();
    const CXXRecordDecl *ObjectClass = recordOf(Object->getType(), /*ThroughPointer=*/true);
    llvm::SmallVector<const Expr *, 4> Operands{Object};
    Operands.append(Call->arg_begin(), Call->arg_end());
    if (isTensorType(Object->getType())) {
      if (isCutName(Name))
        return Carries::No;
      if (Name == "requires_grad_" || Name == "set_requires_grad") {
        if (Call->getNumArgs() > 0 &&
            !isa<CXXDefaultArgExpr>(Call->getArg(0)) &&
            evaluateOptionalBool(Call->getArg(0), Ctx) == OptionalBool::False)
          return of(Object);
        return Carries::Yes;
      }
      if ((Name == "to" || Name == "type" || Name == "toType") &&
          llvm::any_of(Call->arguments(), [&](const Expr *Arg) {
            return isIntegralDtype(Arg, Ctx);
          }))
        return Carries::No;
      return anyOf(Operands);
    }
    if (isModuleClass(ObjectClass) &&
        llvm::is_contained({"parameters", "named_parameters"}, Name))
      return Carries::Yes;
    if (ObjectClass && ObjectClass->isInStdNamespace())
      return of(Object); // back(), front(), at(), ...: an element
    if (ObjectClass && ObjectClass->getQualifiedNameAsString() == "c10::IValue")
      return of(Object); // toTensor(), toTuple(), ...
  }

  if (inTorchNamespace(FD)) {
    if (isCutName(Name))
      return Carries::No;
    if (isFactory(Name) || Name.ends_with("_like")) {
      for (const Expr *Arg : Call->arguments()) {
        RequiresGradFinder Finder(Ctx);
        Finder.TraverseStmt(const_cast<Expr *>(Arg));
        if (Finder.Found)
          return Carries::Yes;
      }
      return Name == "from_blob" || isFactory(Name) || Name.ends_with("_like")
                 ? Carries::No
                 : Carries::Unknown;
    }
    if (Name == "requires_grad")
      return Carries::No; // TensorOptions, not a tensor
    return anyOf(llvm::ArrayRef(Call->getArgs(), Call->getNumArgs()));
  }
  if (FD->isInStdNamespace())
    return anyOf(llvm::ArrayRef(Call->getArgs(), Call->getNumArgs()));
  return ofFunctionResult(FD, Call);
}

Carries HistoryAnalysis::ofFunctionResult(const FunctionDecl *FD,
                                          const CallExpr *Call) {
  const FunctionDecl *Def = FD->getDefinition();
  if (!Def || !Def->hasBody() ||
      Ctx.getSourceManager().isInSystemHeader(Def->getLocation()) ||
      CallStack.size() >= 4 ||
      llvm::any_of(CallStack, [&](const CallExpr *Active) {
        return Active->getDirectCallee() &&
               Active->getDirectCallee()->getDefinition() == Def;
      }))
    return Carries::Unknown;
  ReturnCollector Returns;
  Returns.TraverseStmt(Def->getBody());
  CallStack.push_back(Call);
  Carries Result = anyOf(Returns.Values);
  CallStack.pop_back();
  return Result;
}

Carries HistoryAnalysis::ofField(const FieldDecl *Field) {
  const auto *Class = dyn_cast<CXXRecordDecl>(Field->getParent());
  if (!Class || !isModuleClass(Class) || !isTensorType(Field->getType()))
    return Carries::Unknown;
  // A module's tensor member is a parameter when registered as one.
  Carries Result = Carries::Unknown;
  for (const CXXConstructorDecl *Ctor : Class->ctors()) {
    llvm::SmallVector<const Expr *, 4> Values;
    for (const CXXCtorInitializer *Init : Ctor->inits())
      if (Init->getMember() == Field && Init->isWritten())
        Values.push_back(Init->getInit());
    if (const Stmt *Body = Ctor->getBody())
      for (const Stmt *Child : Body->children()) {
        if (const auto *E = dyn_cast_or_null<Expr>(Child))
          Child = stripWrappers(E);
        if (auto Def = definitionAt(Child, Field))
          Values.append(Def->Values.begin(), Def->Values.end());
      }
    for (const Expr *Value : Values) {
      const auto *Call = dyn_cast<CallExpr>(stripWrappers(Value));
      const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
      if (FD && FD->getIdentifier() && FD->getName() == "register_parameter")
        return Carries::Yes;
      if (FD && FD->getIdentifier() && FD->getName() == "register_buffer")
        Result = Carries::No;
    }
  }
  return Result;
}

Carries HistoryAnalysis::ofDecl(const ValueDecl *D, const Expr *Use) {
  if (const auto *Binding = dyn_cast<BindingDecl>(D)) {
    const auto *Whole = dyn_cast_or_null<VarDecl>(Binding->getDecomposedDecl());
    return Whole ? ofDecl(Whole, Use) : Carries::Unknown;
  }
  if (const auto *Field = dyn_cast<FieldDecl>(D))
    return ofField(Field);
  const auto *Var = dyn_cast<VarDecl>(D);
  if (!Var)
    return Carries::No; // an enumerator, a function
  if (const auto *Param = dyn_cast<ParmVarDecl>(Var)) {
    // Inside a callee we were led into: the argument of that call.
    for (size_t I = CallStack.size(); I-- > 0;) {
      const CallExpr *Call = CallStack[I];
      const FunctionDecl *Callee = Call->getDirectCallee();
      if (!Callee || Param->getDeclContext() != Callee->getDefinition())
        continue;
      unsigned Index = Param->getFunctionScopeIndex();
      if (Index >= Call->getNumArgs())
        return Carries::Unknown;
      auto Saved = CallStack;
      CallStack.resize(I);
      Carries Result = of(Call->getArg(Index));
      CallStack = std::move(Saved);
      return Result;
    }
  }
  if (!Var->hasLocalStorage())
    return Carries::Unknown; // a global or static: written who knows where

  // The use as seen from the function that declares the variable: for a
  // lambda that captures it, the place where the lambda is written.
  const Stmt *At = Use;
  const auto *Owner = dyn_cast<FunctionDecl>(Var->getParentFunctionOrMethod());
  for (unsigned Depth = 0; Depth < 8 && Owner; ++Depth) {
    const FunctionDecl *Here = enclosingFunction(At, Ctx);
    if (!Here || Here == Owner)
      break;
    const auto *MD = dyn_cast<CXXMethodDecl>(Here);
    if (!MD || !MD->getParent()->isLambda())
      break;
    // Find the LambdaExpr of this call operator among At's ancestors.
    DynTypedNode Node = DynTypedNode::create(*At);
    const Stmt *LambdaAt = nullptr;
    for (unsigned Up = 0; Up < 256 && !LambdaAt; ++Up) {
      auto Parents = Ctx.getParents(Node);
      if (Parents.empty())
        break;
      Node = Parents[0];
      if (const auto *Lambda = Node.get<LambdaExpr>())
        if (Lambda->getCallOperator() == MD)
          LambdaAt = Lambda;
    }
    if (!LambdaAt)
      break;
    At = LambdaAt;
  }

  const FunctionFlow *Flow = flowAt(At);
  if (!Flow || !Flow->valid())
    return Carries::Unknown;
  Carries Result = Carries::No;
  for (const Definition &Def : Flow->reachingDefinitions(Var, At)) {
    if (Def.Kind == Definition::Entry) {
      Result = join(Result, Carries::Unknown);
      continue;
    }
    for (const Expr *Value : Def.Values) {
      // The in-place call itself (requires_grad_) stands for its result.
      if (Value == Def.At) {
        Result = join(Result, guarded(Value) ? Carries::No
                                             : ofCall(cast<CallExpr>(Value)));
        continue;
      }
      if (guarded(Value))
        continue;
      Result = join(Result, of(Value));
    }
    if (Result == Carries::Yes)
      break;
  }
  return Result;
}

} // namespace torch_tidy::analysis
