//===--- TorchTypes.cpp - Recognising LibTorch types and calls ------------===//

#include "checks/analysis/TorchTypes.h"

#include "checks/analysis/ExprUtils.h"
#include "checks/analysis/Names.h"
#include "checks/analysis/Walk.h"
#include "clang/Basic/SourceManager.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace torch_tidy::analysis {

const CXXRecordDecl *recordOf(QualType T, bool ThroughPointer) {
  if (T.isNull())
    return nullptr;
  T = T.getNonReferenceType();
  if (ThroughPointer && T->isPointerType())
    T = T->getPointeeType();
  if (const auto *RD = T.getCanonicalType()->getAsCXXRecordDecl())
    return RD->getDefinition() ? RD->getDefinition() : RD;
  return nullptr;
}

QualType firstTypeArgument(const CXXRecordDecl *RD) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(RD);
  if (!Spec || Spec->getTemplateArgs().size() == 0 ||
      Spec->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
    return QualType();
  return Spec->getTemplateArgs()[0].getAsType();
}

bool isSmartPointer(const CXXRecordDecl *RD) {
  if (!RD)
    return false;
  std::string Name = RD->getQualifiedNameAsString();
  return Name == "std::shared_ptr" || Name == "std::unique_ptr";
}

const CXXRecordDecl *objectClass(QualType T) {
  const CXXRecordDecl *RD = recordOf(T, /*ThroughPointer=*/true);
  QualType Pointee = firstTypeArgument(RD);
  if (!Pointee.isNull() && isSmartPointer(RD))
    return recordOf(Pointee);
  return RD;
}

bool isOrDerivesFrom(const CXXRecordDecl *RD,
                     llvm::function_ref<bool(const CXXRecordDecl *)> Pred) {
  if (!RD)
    return false;
  if (Pred(RD))
    return true;
  if (!RD->hasDefinition())
    return false;
  bool Found = false;
  RD->forallBases([&](const CXXRecordDecl *Base) {
    Found |= Pred(Base);
    return true;
  });
  return Found;
}

bool derivesFrom(const CXXRecordDecl *RD, llvm::StringRef QualifiedName) {
  return isOrDerivesFrom(RD, [&](const CXXRecordDecl *C) {
    return C->getQualifiedNameAsString() == QualifiedName;
  });
}

bool isTensorType(QualType T) { return derivesFrom(recordOf(T), "at::Tensor"); }

static bool holdsTensorsImpl(QualType T, unsigned Depth) {
  if (Depth > 4)
    return false;
  if (isTensorType(T))
    return true;
  const CXXRecordDecl *RD = recordOf(T);
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(RD);
  // A class of the user's derived from a container of tensors
  // (`class Accumulator : public std::map<std::string, torch::Tensor>`).
  if (!Spec && RD && RD->hasDefinition())
    return llvm::any_of(RD->bases(), [&](const CXXBaseSpecifier &Base) {
      return holdsTensorsImpl(Base.getType(), Depth + 1);
    });
  if (!Spec)
    return false;
  for (const TemplateArgument &Arg : Spec->getTemplateArgs().asArray()) {
    if (Arg.getKind() == TemplateArgument::Type &&
        holdsTensorsImpl(Arg.getAsType(), Depth + 1))
      return true;
    if (Arg.getKind() == TemplateArgument::Pack)
      for (const TemplateArgument &P : Arg.pack_elements())
        if (P.getKind() == TemplateArgument::Type &&
            holdsTensorsImpl(P.getAsType(), Depth + 1))
          return true;
  }
  return false;
}

bool holdsTensors(QualType T) { return holdsTensorsImpl(T, 0); }

bool holdsOnlyNumbers(QualType T) {
  for (unsigned Depth = 0; Depth < 4; ++Depth) {
    T = T.getNonReferenceType().getCanonicalType().getUnqualifiedType();
    if (T->isArithmeticType() || T->isEnumeralType())
      return true;
    const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
    if (!RD)
      return false;
    std::string Name = RD->getQualifiedNameAsString();
    if (Name == "c10::Scalar" || Name == "std::basic_string" ||
        Name == "std::__cxx11::basic_string")
      return true;
    static const llvm::StringRef Sequences[] = {
        "c10::ArrayRef", "c10::SmallVector", "c10::OptionalArrayRef",
        "std::vector", "std::array", "std::initializer_list"};
    QualType Element = firstTypeArgument(RD);
    if (Element.isNull() || !llvm::is_contained(Sequences, Name))
      return false;
    T = Element;
  }
  return false;
}

bool holdsTensorsOrFields(QualType T) {
  if (holdsTensors(T))
    return true;
  const CXXRecordDecl *RD = recordOf(T);
  if (!RD || !RD->hasDefinition() || RD->isInStdNamespace())
    return false;
  return llvm::any_of(RD->fields(), [](const FieldDecl *Field) {
    return holdsTensors(Field->getType());
  });
}

bool holdsTensorRecords(QualType T) {
  const auto *Spec =
      dyn_cast_or_null<ClassTemplateSpecializationDecl>(recordOf(T));
  if (!Spec || !Spec->isInStdNamespace())
    return false;
  for (const TemplateArgument &Arg : Spec->getTemplateArgs().asArray())
    if (Arg.getKind() == TemplateArgument::Type) {
      QualType Element = Arg.getAsType();
      const CXXRecordDecl *RD = recordOf(Element);
      if (RD && !RD->isInStdNamespace() && !holdsTensors(Element) &&
          holdsTensorsOrFields(Element))
        return true;
    }
  return false;
}

static bool isTensorAggregateImpl(QualType T, unsigned Depth) {
  if (Depth > 3 || T->isReferenceType() || T->isPointerType())
    return false;
  const CXXRecordDecl *RD = recordOf(T);
  if (!RD || !RD->hasDefinition() || !RD->isAggregate() ||
      RD->getNumBases() != 0 || holdsTensors(T))
    return false;
  for (const DeclContext *DC = RD->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      if (NS->getIdentifier() &&
          llvm::is_contained({"std", "at", "c10", "torch"}, NS->getName()))
        return false;
  return llvm::any_of(RD->fields(), [&](const FieldDecl *Field) {
    return holdsTensors(Field->getType()) ||
           isTensorAggregateImpl(Field->getType(), Depth + 1);
  });
}

bool isTensorAggregate(QualType T) { return isTensorAggregateImpl(T, 0); }

static bool mayHoldTensorsImpl(QualType T, unsigned Depth) {
  if (Depth > 4)
    return false;
  if (holdsTensors(T) || isTensorAggregate(T.getNonReferenceType()))
    return true;
  const CXXRecordDecl *RD = recordOf(T, /*ThroughPointer=*/true);
  if (!RD)
    return false;
  std::string Name = RD->getQualifiedNameAsString();
  // A tuple's elements are a struct of their own, not a container template.
  if (Name == "c10::IValue" || Name == "c10::ivalue::Tuple" ||
      Name == "c10::ivalue::TupleElements")
    return true;
  // A class nested in a template over tensors (OrderedDict<K, Tensor>::Item)
  // holds what the template holds.
  const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD);
  if (!Spec)
    if (const auto *Outer = dyn_cast<CXXRecordDecl>(RD->getDeclContext()))
      return mayHoldTensorsImpl(QualType(Outer->getTypeForDecl(), 0), Depth + 1);
  if (!Spec)
    return false;
  for (const TemplateArgument &Arg : Spec->getTemplateArgs().asArray())
    if (Arg.getKind() == TemplateArgument::Type &&
        mayHoldTensorsImpl(Arg.getAsType(), Depth + 1))
      return true;
  return false;
}

bool mayHoldTensors(QualType T) { return mayHoldTensorsImpl(T, 0); }

bool mayBeOverridden(const CXXMethodDecl *MD) {
  return MD && MD->isVirtual() && !MD->hasAttr<FinalAttr>() &&
         !MD->getParent()->hasAttr<FinalAttr>();
}

bool isTorchFunction(const FunctionDecl *FD) {
  std::string Name = FD->getQualifiedNameAsString();
  llvm::StringRef N(Name);
  return N.starts_with("at::") || N.starts_with("torch::") ||
         N.starts_with("c10::");
}

bool isLibraryFunction(const FunctionDecl *FD) {
  return FD->isInStdNamespace() ||
         llvm::StringRef(FD->getQualifiedNameAsString()).starts_with("std::") ||
         isTorchFunction(FD);
}

bool isTestHarnessFunction(const FunctionDecl *FD) {
  if (!FD)
    return false;
  const NamespaceDecl *Outermost = nullptr;
  for (const DeclContext *DC = FD->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      Outermost = NS;
  if (!Outermost || !Outermost->getIdentifier())
    return false;
  llvm::StringRef Name = Outermost->getName();
  return Name == "Catch" || Name == "testing" || Name == "doctest" ||
         Name == "benchmark";
}

bool isBackwardFunction(const FunctionDecl *FD) {
  if (!FD)
    return false;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
    return MD->getName() == "backward" &&
           isTensorType(QualType(MD->getParent()->getTypeForDecl(), 0));
  if (!FD->getIdentifier())
    return false;
  std::string Name = FD->getQualifiedNameAsString();
  return Name == "torch::autograd::backward" || Name == "torch::autograd::grad";
}

const Expr *backwardRoots(const CallExpr *Call) {
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call))
    return Member->getImplicitObjectArgument();
  return Call->getNumArgs() > 0 ? Call->getArg(0) : nullptr;
}

bool isInPlaceTensorCall(const CXXMemberCallExpr *Call) {
  const CXXMethodDecl *MD = Call->getMethodDecl();
  return MD && MD->getIdentifier() && MD->getName().ends_with("_") &&
         isTensorType(Call->getImplicitObjectArgument()->getType()) &&
         isTensorType(Call->getType());
}

bool isViewTensorCall(const CXXMemberCallExpr *Call) {
  const CXXMethodDecl *MD = Call->getMethodDecl();
  return MD && MD->getIdentifier() &&
         llvm::is_contained({"view", "view_as", "reshape", "reshape_as",
                             "flatten", "squeeze", "unsqueeze", "transpose",
                             "t", "permute", "movedim", "diagonal",
                             "as_strided", "expand", "expand_as"},
                            MD->getName()) &&
         isTensorType(Call->getImplicitObjectArgument()->getType()) &&
         isTensorType(Call->getType());
}

const Expr *inPlaceChainRoot(const Expr *E) {
  for (unsigned Depth = 0; Depth < 8; ++Depth) {
    const auto *Call = dyn_cast<CXXMemberCallExpr>(stripWrappers(E));
    if (!Call || (!isInPlaceTensorCall(Call) && !isViewTensorCall(Call)) ||
        Call->getMethodDecl()->getName() == "detach_")
      break;
    E = Call->getImplicitObjectArgument();
  }
  return stripWrappers(E);
}

std::optional<unsigned> parameterIndex(const FunctionDecl *FD,
                                       llvm::StringRef Name) {
  for (unsigned I = 0, N = FD->getNumParams(); I != N; ++I)
    if (const IdentifierInfo *II = FD->getParamDecl(I)->getIdentifier())
      if (II->getName() == Name)
        return I;
  return std::nullopt;
}

static bool isOptionalType(QualType T) {
  const CXXRecordDecl *RD = recordOf(T);
  return RD && RD->getName() == "optional";
}

OptionalBool evaluateOptionalBool(const Expr *E, const ASTContext &Ctx) {
  if (!E || isa<CXXDefaultArgExpr>(E))
    return OptionalBool::Unknown;
  E = stripWrappers(E);
  if (E->isValueDependent() || E->isTypeDependent())
    return OptionalBool::Unknown;
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E);
      CE && isOptionalType(CE->getType())) {
    if (CE->getNumArgs() == 0)
      return OptionalBool::None;
    const Expr *Arg = stripWrappers(CE->getArg(0));
    if (isOptionalType(Arg->getType()))
      return evaluateOptionalBool(Arg, Ctx);
    if (!Arg->getType()->isScalarType())
      return OptionalBool::None; // nullopt_t, in_place_t, ...
    return evaluateOptionalBool(Arg, Ctx);
  }
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    if (const FunctionDecl *FD = Call->getDirectCallee();
        FD && FD->getName() == "make_optional" && Call->getNumArgs() == 1)
      return evaluateOptionalBool(Call->getArg(0), Ctx);
  }
  if (isa<InitListExpr>(E) && cast<InitListExpr>(E)->getNumInits() == 0)
    return OptionalBool::None;
  if (!E->getType()->isScalarType())
    return OptionalBool::Unknown;
  bool Value = false;
  if (E->EvaluateAsBooleanCondition(Value, Ctx))
    return Value ? OptionalBool::True : OptionalBool::False;
  return OptionalBool::Unknown;
}

bool isInNamespace(const Decl *D, llvm::ArrayRef<llvm::StringRef> Roots) {
  const DeclContext *DC = D->getDeclContext();
  const NamespaceDecl *Outer = nullptr;
  for (; DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      Outer = NS;
  return Outer && Outer->getIdentifier() &&
         llvm::is_contained(Roots, Outer->getName());
}

bool inLibraryNamespace(const Decl *D) {
  return isInNamespace(D, {"std", "torch", "at", "c10"});
}

bool isModuleClass(const CXXRecordDecl *RD) {
  return isOrDerivesFrom(RD, [](const CXXRecordDecl *C) {
    std::string Name = C->getQualifiedNameAsString();
    return Name == "torch::nn::Module" || Name == "torch::jit::Module" ||
           Name == "torch::nn::AnyModule" || Name == "torch::nn::ModuleHolder";
  });
}

/// A method of the user's own module class whose body is not in the unit,
/// handed a tensor and returning tensors (`actor.sample_normal(state)`
/// defined in another file): it runs the module's layers on its input, as
/// its forward does. Methods of LibTorch's modules, and those with a body in
/// view, are judged by what they are.
static bool runsModuleOutOfView(const CXXMemberCallExpr *Call,
                                const CXXMethodDecl *MD) {
  if (MD->isStatic() || !MD->getIdentifier() || !isModuleClass(MD->getParent()) ||
      isInNamespace(MD->getParent(), {"torch", "at", "c10"}))
    return false;
  const FunctionDecl *Def = MD->getDefinition();
  if ((Def && Def->hasBody()) ||
      MD->getASTContext().getSourceManager().isInSystemHeader(MD->getLocation()))
    return false;
  if (!holdsTensors(MD->getReturnType()))
    return false;
  return llvm::any_of(Call->arguments(), [](const Expr *Arg) {
    return holdsTensors(Arg->getType());
  });
}

bool isForwardCallOutOfView(const Expr *E, const NameGuesses &Names) {
  const auto *Call = dyn_cast_or_null<CXXMemberCallExpr>(stripWrappers(E));
  const CXXMethodDecl *MD = Call ? Call->getMethodDecl() : nullptr;
  return MD && MD->getIdentifier() && !Names.namesForward(MD->getName()) &&
         MD->getName() != "run_method" && runsModuleOutOfView(Call, MD);
}

bool isForwardCall(const Expr *E, const NameGuesses &Names) {
  E = stripWrappers(E);
  if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(E))
    return Op->getOperator() == OO_Call && Op->getNumArgs() > 0 &&
           isModuleClass(recordOf(Op->getArg(0)->getType(), /*ThroughPointer=*/true));
  if (const auto *Call = dyn_cast_or_null<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *MD = Call->getMethodDecl();
    if (!MD || !MD->getIdentifier())
      return false;
    if (!(Names.namesForward(MD->getName()) || MD->getName() == "run_method"))
      return runsModuleOutOfView(Call, MD);
    return isModuleClass(MD->getParent()) ||
           isModuleClass(recordOf(Call->getImplicitObjectArgument()->getType(),
                                    /*ThroughPointer=*/true));
  }
  return false;
}

/// The module class a torch::nn::ModuleHolder<Impl> (or a class derived
/// from one) holds: Impl.
static const CXXRecordDecl *heldModule(const CXXRecordDecl *Class) {
  const auto *Holder = dyn_cast_or_null<ClassTemplateSpecializationDecl>(Class);
  if (!Holder)
    isOrDerivesFrom(Class, [&](const CXXRecordDecl *C) {
      if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(C);
          Spec && Spec->getQualifiedNameAsString() == "torch::nn::ModuleHolder")
        Holder = Spec;
      return Holder != nullptr;
    });
  if (!Holder || Holder->getQualifiedNameAsString() != "torch::nn::ModuleHolder" ||
      Holder->getTemplateArgs().size() < 1 ||
      Holder->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
    return nullptr;
  return recordOf(Holder->getTemplateArgs()[0].getAsType());
}

/// Whether \p Field holds no parameter: a number, an enum, or a module's
/// options (`ZeroPad2dOptions`, `MaxPoolOptions<2>`).
static bool holdsNoParameter(const FieldDecl *Field) {
  QualType T = Field->getType().getCanonicalType().getNonReferenceType();
  if (T->isArithmeticType() || T->isEnumeralType())
    return true;
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  return RD && RD->getIdentifier() && RD->getName().ends_with("Options");
}

const CXXRecordDecl *moduleRunBy(const Expr *Forward) {
  Forward = stripWrappers(Forward);
  const CXXRecordDecl *Class = nullptr;
  if (const auto *Call = dyn_cast_or_null<CXXMemberCallExpr>(Forward))
    Class = recordOf(Call->getImplicitObjectArgument()->getType(),
                     /*ThroughPointer=*/true);
  else if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(Forward);
           Op && Op->getOperator() == OO_Call && Op->getNumArgs() > 0)
    Class = recordOf(Op->getArg(0)->getType(), /*ThroughPointer=*/true);
  if (const CXXRecordDecl *Impl = heldModule(Class))
    return Impl;
  return Class;
}

bool isParameterFreeLibraryModule(const CXXRecordDecl *Impl) {
  if (!Impl || !(Impl = Impl->getDefinition()) ||
      !llvm::StringRef(Impl->getQualifiedNameAsString()).starts_with("torch::nn::") ||
      Impl->getQualifiedNameAsString() == "torch::nn::Module")
    return false;
  // From the class up to torch::nn::Module, whose own members (the
  // registries of parameters, buffers and children) every module has.
  llvm::SmallVector<const CXXRecordDecl *, 4> Work{Impl};
  bool ReachesModule = false;
  for (unsigned I = 0; I < Work.size(); ++I) {
    const CXXRecordDecl *C = Work[I]->getDefinition();
    if (!C)
      return false;
    if (C->getQualifiedNameAsString() == "torch::nn::Module") {
      ReachesModule = true;
      continue;
    }
    // LibTorch's modules with parameters declare `reset_parameters()`
    // (an LSTM registers its weights without a member of its own for each).
    if (!isInNamespace(C, {"torch"}) ||
        !llvm::all_of(C->fields(), holdsNoParameter) ||
        llvm::any_of(C->methods(), [](const CXXMethodDecl *M) {
          return M->getIdentifier() && M->getName() == "reset_parameters";
        }))
      return false;
    for (const CXXBaseSpecifier &Base : C->bases())
      if (const CXXRecordDecl *B = Base.getType()->getAsCXXRecordDecl())
        Work.push_back(B);
      else
        return false;
  }
  return ReachesModule;
}

const FunctionDecl *forwardCallee(const Expr *Forward) {
  Forward = stripWrappers(Forward);
  const FunctionDecl *Named = nullptr;
  const CXXRecordDecl *Class = nullptr;
  unsigned Arguments = 0;
  if (const auto *Call = dyn_cast_or_null<CXXMemberCallExpr>(Forward))
    Named = Call->getMethodDecl();
  else if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(Forward);
           Op && Op->getOperator() == OO_Call && Op->getNumArgs() > 0) {
    Named = Op->getDirectCallee();
    Class = recordOf(Op->getArg(0)->getType(), /*ThroughPointer=*/true);
    Arguments = Op->getNumArgs() - 1;
  }
  if (!Named)
    return nullptr;
  auto Users = [](const Decl *D) {
    return !isInNamespace(D, {"torch", "at", "c10", "std"});
  };
  if (Users(Named))
    return Named;
  // `m(x)` through torch::nn::ModuleHolder<Impl>: Impl's forward.
  const CXXRecordDecl *Impl = heldModule(Class);
  if (!Impl || !Users(Impl) || !Impl->hasDefinition())
    return nullptr;
  for (const CXXMethodDecl *MD : Impl->methods())
    if (MD->getIdentifier() && MD->getName() == "forward" &&
        MD->getMinRequiredArguments() <= Arguments &&
        Arguments <= MD->getNumParams())
      return MD;
  return nullptr;
}

llvm::SmallVector<const CallExpr *, 4> forwardCallsIn(const Stmt *S,
                                                      const NameGuesses &Names) {
  class Forwards : public StmtWalk {
  public:
    explicit Forwards(const NameGuesses &Names) : Names(Names) {}
    llvm::SmallVector<const CallExpr *, 4> Found;
    const NameGuesses &Names;
    bool visit(Stmt *S) override {
      const auto *Call = dyn_cast<CallExpr>(S);
      if (Call && isForwardCall(Call, Names))
        Found.push_back(Call);
      return true;
    }
  } Finder(Names);
  Finder.walk(S);
  return std::move(Finder.Found);
}

bool makesTensorFromSizes(llvm::StringRef Name) {
  return llvm::is_contained({"zeros", "ones", "empty", "full", "rand", "randn",
                             "randint", "arange", "range", "linspace",
                             "logspace", "eye", "normal"},
                            Name);
}

bool isCutName(llvm::StringRef Name) {
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

/// Whether \p E is a dtype constant naming an integer or bool type.
bool isIntegralDtype(const Expr *E, const ASTContext &Ctx) {
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
  return isTorchFunction(FD) && isCutName(Name);
}

} // namespace torch_tidy::analysis
