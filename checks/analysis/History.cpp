//===--- History.cpp - H: does this expression carry autograd history? ----===//

#include "checks/analysis/History.h"

#include "checks/analysis/BackwardPasses.h"

#include "checks/analysis/ExprUtils.h"
#include "checks/analysis/LoopScope.h"
#include "checks/analysis/ModuleMode.h"
#include "checks/analysis/SummaryData.h"
#include "checks/analysis/TorchTypes.h"
#include "checks/analysis/Walk.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace torch_tidy::analysis {


/// Functions that make a new tensor, with history only if asked for: from
/// sizes and numbers, or from the values they are given.
static bool isFactory(llvm::StringRef Name) {
  return makesTensorFromSizes(Name) ||
         llvm::is_contained({"tensor", "from_blob", "scalar_tensor"}, Name);
}

namespace {
/// Finds `.requires_grad(true)` / `torch::requires_grad()` in an argument.
class RequiresGradFinder : public StmtWalk {
public:
  explicit RequiresGradFinder(const ASTContext &Ctx) : Ctx(Ctx) {}
  bool Found = false;
  bool visit(Stmt *S) override {
    const auto *Call = dyn_cast<CallExpr>(S);
    if (!Call)
      return true;
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

} // namespace

/// LibTorch's operations that return (values, indices): max, min, sort,
/// topk, ... along a dimension.
static bool isIndicesPair(const FunctionDecl *FD) {
  if (!FD->getIdentifier() ||
      !llvm::is_contained({"max", "min", "sort", "topk", "kthvalue", "median",
                           "nanmedian", "mode", "cummax", "cummin",
                           "max_pool1d_with_indices", "max_pool2d_with_indices",
                           "max_pool3d_with_indices"},
                          FD->getName()))
    return false;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
    return isTensorType(QualType(MD->getParent()->getTypeForDecl(), 0));
  return isTorchFunction(FD);
}

static bool isTupleMaker(const FunctionDecl *FD) {
  return FD->isInStdNamespace() && FD->getIdentifier() &&
         llvm::is_contained({"make_tuple", "make_pair", "forward_as_tuple", "tie"},
                            FD->getName());
}

static bool isTupleClass(const CXXRecordDecl *RD) {
  return RD && RD->isInStdNamespace() && RD->getIdentifier() &&
         (RD->getName() == "tuple" || RD->getName() == "pair");
}

HistoryAnalysis::HistoryAnalysis(ASTContext &Ctx, const CallSites *Callers,
                                 HistoryOptions Options)
    : Ctx(Ctx), Callers(Callers), Options(Options) {}

bool HistoryAnalysis::keepsGraph(const Expr *E) {
  Carries C = history(E);
  return C.mayHoldGraph() ||
         (C.mayBeUnknown() && Options.AssumeUnknownCarries);
}

bool HistoryAnalysis::requiresGrad(const Expr *E) {
  Carries C = history(E);
  return C.requiresGrad() ||
         (C.mayBeUnknown() && Options.AssumeUnknownCarries);
}

bool HistoryAnalysis::projectTrainsNowhere() {
  if (!TrainsNowhere)
    TrainsNowhere = Options.Summaries && Options.Summaries->trainsNowhere() &&
                    !firstTrainingIn(Ctx);
  return *TrainsNowhere;
}

const FunctionFlow *HistoryAnalysis::flowOf(const FunctionDecl *FD) {
  if (!FD)
    return nullptr;
  auto &Flow = Flows[FD];
  if (!Flow)
    Flow = std::make_unique<FunctionFlow>(FD, Ctx);
  return Flow.get();
}

const FunctionFlow *HistoryAnalysis::flowAt(const Stmt *S) {
  return flowOf(enclosingFunction(S, Ctx));
}

bool HistoryAnalysis::guarded(const Expr *E) {
  return gradStateAt(E, Ctx, Callers, Options.names()) ==
         GradState::NotRecording;
}

Carries HistoryAnalysis::anyOf(llvm::ArrayRef<const Expr *> Exprs) {
  Carries Result = Carries::none();
  for (const Expr *E : Exprs) {
    Result |= of(E, WholeValue);
    if (Result.mayHoldGraph())
      break;
  }
  return Result;
}

namespace {
/// The parameters referred to in an expression and in the initialisers of
/// the local variables it names.
class ParameterFinder : public StmtWalk {
public:
  llvm::SmallVector<const ParmVarDecl *, 4> Params;
  unsigned Depth = 0;
  bool visit(Stmt *S) override {
    const auto *Ref = dyn_cast<DeclRefExpr>(S);
    if (!Ref)
      return true;
    if (const auto *Param = dyn_cast<ParmVarDecl>(Ref->getDecl()))
      Params.push_back(Param);
    else if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
             Var && Var->hasLocalStorage() && Var->getInit() && Depth < 3) {
      ++Depth;
      walk(Var->getInit());
      --Depth;
    }
    return true;
  }
};
} // namespace

const CallExpr *HistoryAnalysis::callSiteWitness(const Expr *E) {
  history(E);
  ParameterFinder Finder;
  Finder.walk(E);
  for (const ParmVarDecl *Param : Finder.Params) {
    auto It = Witness.find(Param);
    if (It != Witness.end())
      return It->second;
  }
  return nullptr;
}

std::optional<HistoryAnalysis::ForeignCall>
HistoryAnalysis::foreignCallWitness(const Expr *E) {
  history(E);
  if (ForeignWitness.empty())
    return std::nullopt;
  ParameterFinder Finder;
  Finder.walk(E);
  for (const ParmVarDecl *Param : Finder.Params)
    if (auto It = ForeignWitness.find(Param); It != ForeignWitness.end())
      return ForeignCall{Param, It->second};
  return std::nullopt;
}

namespace {
/// Finds one of the calls of \p Assumed that \p S is computed from: in \p S
/// itself, in what the local variables it reads were given before, and in
/// what the functions of the unit that it calls return.
class AssumedFinder : public StmtWalk {
public:
  AssumedFinder(HistoryAnalysis &History,
                const llvm::DenseSet<const CallExpr *> &Assumed)
      : History(History), Assumed(Assumed) {}
  const CallExpr *Found = nullptr;

  void search(const Stmt *S, unsigned Depth) {
    if (!S || Found || Depth > 4)
      return;
    unsigned Saved = this->Depth;
    this->Depth = Depth;
    walk(S);
    this->Depth = Saved;
  }
  bool visit(Stmt *S) override {
    if (auto *Call = dyn_cast<CallExpr>(S))
      return visitCall(Call);
    if (auto *Ref = dyn_cast<DeclRefExpr>(S))
      return visitRef(Ref);
    return true;
  }

private:
  bool visitCall(CallExpr *Call) {
    if (Assumed.contains(Call)) {
      Found = Call;
      return false;
    }
    const FunctionDecl *Callee = Call->getDirectCallee();
    const FunctionDecl *Def = Callee ? Callee->getDefinition() : nullptr;
    if (Def && Def->hasBody() && Visited.insert(Def).second)
      for (const Expr *Returned : returnedValues(Def->getBody()))
        search(Returned, Depth + 1);
    return !Found;
  }
  bool visitRef(DeclRefExpr *Ref) {
    const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
    if (!Var || !Var->hasLocalStorage() || !Visited.insert(Var).second)
      return true;
    if (const FunctionFlow *Flow = History.flowAt(Ref))
      for (const Definition &Def : Flow->reachingDefinitions(Var, Ref))
        for (const Expr *Value : Def.Values)
          search(Value, Depth + 1);
    return !Found;
  }

  HistoryAnalysis &History;
  const llvm::DenseSet<const CallExpr *> &Assumed;
  llvm::DenseSet<const Decl *> Visited;
  unsigned Depth = 0;
};
} // namespace

HistoryAnalysis::Assumption HistoryAnalysis::assumptionBehind(const Expr *E) {
  if (!E || Assumed.empty() || !keepsGraph(E))
    return {};
  // Would it hold a graph without the assumptions about code out of view?
  HistoryOptions Strict = Options;
  Strict.OpaqueCallsPassHistory = false;
  HistoryAnalysis Without(Ctx, Callers, Strict);
  if (Without.keepsGraph(E))
    return {};
  AssumedFinder Finder(*this, AssumedSet);
  Finder.search(E, 0);
  return {true, Finder.Found};
}

/// Whether \p T is a class of the user's, not a module nor a plain
/// struct, with a member that holds tensors (a loss record whose members
/// are private and set by its constructor): what its members hold is what
/// it holds.
static bool isObjectHoldingTensors(QualType T) {
  const CXXRecordDecl *RD = recordOf(T);
  return RD && !inLibraryNamespace(RD) && !isModuleClass(RD) &&
         holdsTensorsOrFields(T);
}

Carries HistoryAnalysis::of(const Expr *E, int Element) {
  if (!E)
    return Carries::none();
  E = stripWrappers(E);
  if (!mayHoldTensors(E->getType()) && !isa<InitListExpr>(E) &&
      !isObjectHoldingTensors(E->getType()))
    return Carries::none();
  std::pair<const Expr *, int> Key{E, Element};
  bool Cacheable = CallStack.empty() && ConstructStack.empty();
  if (Cacheable) {
    auto It = Cache.find(Key);
    if (It != Cache.end())
      return It->second;
  }
  if (InProgress.empty()) {
    Steps = 0;
    Partial.clear();
  }
  std::tuple<const Expr *, int, const CallExpr *, size_t> PartialKey{
      E, Element, CallStack.empty() ? nullptr : CallStack.back(),
      CallStack.size() + 64 * ConstructStack.size()};
  if (++Steps > PartialAfter)
    if (auto It = Partial.find(PartialKey); It != Partial.end())
      return It->second;
  if (!InProgress.insert(Key).second) {
    ++CycleHits;
    return Carries::none(); // a cycle through a loop: nothing new on this path
  }
  unsigned CyclesBefore = CycleHits;
  Carries Result = ofUncached(E, Element);
  InProgress.erase(Key);
  if (Cacheable && (CycleHits == CyclesBefore || Result.mayHoldGraph()))
    Cache[Key] = Result;
  else if (Steps > PartialAfter)
    Partial[PartialKey] = Result;
  return Result;
}

bool HistoryAnalysis::writesIntoGradLeaf(const Expr *Target) {
  const Expr *Base = containerOf(Target);
  return Base && isTensorType(Base->getType()) &&
         of(Base, WholeValue) == Carries::leaf();
}

bool HistoryAnalysis::storesIndices(const Expr *Target, const Stmt *Store) {
  const auto *Var = dyn_cast_or_null<VarDecl>(
      referencedDecl(stripWrappers(containerOf(Target))));
  if (!Var || !Var->hasLocalStorage() || Var->getType()->isReferenceType())
    return false;
  const FunctionFlow *Flow = flowAt(Store);
  if (!Flow || !Flow->valid())
    return false;
  std::optional<Definition> Def = definitionAt(Store, Var);
  return Def && Indices.usedAsIndex(*Flow, Var, *Def);
}

Carries HistoryAnalysis::ofUncached(const Expr *E, int Element) {
  // obj.field of a plain object (a pair, a struct): that element of obj.
  if (const auto *Member = dyn_cast<MemberExpr>(E)) {
    const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl());
    const Expr *Base = stripWrappers(Member->getBase());
    if (Field && !Member->isArrow() && !isa<CXXThisExpr>(Base) &&
        !isModuleClass(dyn_cast<CXXRecordDecl>(Field->getParent())))
      return of(Base, elementPath(static_cast<int>(Field->getFieldIndex()),
                                  Element));
  }
  if (const ValueDecl *D = referencedDecl(E))
    return ofDecl(D, E, Element);
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    // Packing values into a tuple, or taking one out, records nothing even
    // with grad mode on: under a guard, the values keep what they carry.
    const FunctionDecl *FD = Call->getDirectCallee();
    bool Packs = FD && (isTupleMaker(FD) || stdGetIndex(FD));
    return guarded(E) && !Packs ? Carries::none() : ofCall(Call, Element);
  }
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
    if (guarded(E))
      return Carries::none();
    if (Element >= 0 && isTupleClass(recordOf(Construct->getType())) &&
        static_cast<unsigned>(elementHead(Element)) < Construct->getNumArgs())
      return of(Construct->getArg(elementHead(Element)), elementRest(Element));
    // A copy of a tuple or struct: that element of the original.
    if (Element >= 0 && Construct->getNumArgs() == 1 &&
        Construct->getConstructor()->isCopyOrMoveConstructor())
      return of(Construct->getArg(0), Element);
    if (std::optional<Carries> Built = ofConstructed(Construct, Element))
      return *Built;
    return anyOf(llvm::ArrayRef(Construct->getArgs(), Construct->getNumArgs()));
  }
  if (const auto *List = dyn_cast<InitListExpr>(E)) {
    if (Element >= 0 &&
        static_cast<unsigned>(elementHead(Element)) < List->getNumInits())
      return of(List->getInit(elementHead(Element)), elementRest(Element));
    return anyOf(llvm::ArrayRef(List->getInits(), List->getNumInits()));
  }
  if (const auto *StdList = dyn_cast<CXXStdInitializerListExpr>(E))
    return of(StdList->getSubExpr(), WholeValue);
  if (const auto *Cond = dyn_cast<AbstractConditionalOperator>(E))
    return of(Cond->getTrueExpr(), Element) | of(Cond->getFalseExpr(), Element);
  if (const auto *Sub = dyn_cast<ArraySubscriptExpr>(E))
    return of(Sub->getBase(), WholeValue);
  if (isa<CXXDefaultArgExpr, CXXScalarValueInitExpr, ImplicitValueInitExpr>(E))
    return Carries::none();
  return Carries::unknown();
}

Carries HistoryAnalysis::ofCall(const CallExpr *Call, int Element) {
  if (auto Dispatched = ofVirtualCall(Call, Element))
    return *Dispatched;
  if (auto Summarised = ofSummary(Call, Call->getDirectCallee(), Element))
    return *Summarised;
  if (isForwardCall(Call, Options.names())) {
    // One of LibTorch's modules that holds no parameter (padding, pooling,
    // an activation): what its input carries.
    if (isParameterFreeLibraryModule(moduleRunBy(Call))) {
      Carries Result = Carries::none();
      for (const Expr *Arg : Call->arguments())
        if (!isModuleClass(recordOf(Arg->getType(), /*ThroughPointer=*/true)))
          Result |= of(Arg, -1);
      return Result;
    }
    // A method of the user's module defined elsewhere: assumed to run the
    // module's layers (the strict reading leaves it of unknown origin).
    if (isForwardCallOutOfView(Call, Options.names())) {
      if (!Options.OpaqueCallsPassHistory)
        return Carries::unknown();
      if (AssumedSet.insert(Call).second)
        Assumed.push_back(Call);
    } else if (auto InView = ofForwardInView(Call, Element)) {
      return *InView;
    }
    return Carries::graph();
  }
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD)
    return ofOpaqueCall(Call, nullptr, Element); // a function pointer, ...
  llvm::StringRef Name = FD->getIdentifier() ? FD->getName() : "";

  if (auto Index = stdGetIndex(FD); Index && Call->getNumArgs() == 1)
    return of(Call->getArg(0), elementPath(static_cast<int>(*Index), Element));
  // The indices of a (values, indices) result carry no history.
  if (Element >= 0 && elementHead(Element) == 1 && isIndicesPair(FD))
    return Carries::none();
  if (isTupleMaker(FD)) {
    if (Element >= 0 &&
        static_cast<unsigned>(elementHead(Element)) < Call->getNumArgs())
      return of(Call->getArg(elementHead(Element)), elementRest(Element));
    return anyOf(llvm::ArrayRef(Call->getArgs(), Call->getNumArgs()));
  }

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
      return Carries::none();
    case OO_Subscript:
      // An element of a container, or a view of a tensor.
      return isTensorType(Op->getArg(0)->getType())
                 ? of(Op->getArg(0), WholeValue).derived()
                 : of(Op->getArg(0), WholeValue);
    case OO_Call: {
      // A lambda or a functor defined in the unit: follow its body; a
      // std::function or a functor defined elsewhere: opaque.
      const FunctionDecl *Def = FD->getDefinition();
      if (Def && Def->hasBody() &&
          !Ctx.getSourceManager().isInSystemHeader(Def->getLocation()))
        return ofFunctionResult(FD, Call, Element);
      return ofOpaqueCall(Call, FD, Element);
    }
    default: {
      // Arithmetic on tensors records a graph; *it, ->, = on anything else
      // hand on what their operand holds.
      Carries Operands = anyOf(llvm::ArrayRef(Op->getArgs(), Op->getNumArgs()));
      bool TensorOperand = llvm::any_of(Op->arguments(), [](const Expr *Arg) {
        return isTensorType(Arg->getType());
      });
      return TensorOperand && Op->getOperator() != OO_Equal ? Operands.derived()
                                                            : Operands;
    }
    }
  }

  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call)) {
    const Expr *Object = Member->getImplicitObjectArgument();
    const CXXRecordDecl *ObjectClass = recordOf(Object->getType(), /*ThroughPointer=*/true);
    if (isTensorType(Object->getType()))
      return ofMemberCall(Member, Name);
    if (isModuleClass(ObjectClass)) {
      if (llvm::is_contained({"parameters", "named_parameters",
                              "register_parameter"},
                             Name))
        return Carries::leaf();
      if (llvm::is_contained({"buffers", "named_buffers", "register_buffer"},
                             Name))
        return Carries::none();
    }
    // An element or a view of what the object holds: back(), at(), value()
    // of std containers, toTensor()/toTuple() of an IValue, value() of an
    // OrderedDict item.
    if (ObjectClass && !isModuleClass(ObjectClass) &&
        (ObjectClass->isInStdNamespace() ||
         isInNamespace(ObjectClass, {"torch", "at", "c10"})))
      return of(Object, WholeValue);
  }

  if (isTorchFunction(FD))
    return ofTorchFunction(Call, Name);
  if (FD->isInStdNamespace())
    return anyOf(llvm::ArrayRef(Call->getArgs(), Call->getNumArgs()));
  return ofFunctionResult(FD, Call, Element);
}

Carries HistoryAnalysis::ofMemberCall(const CXXMemberCallExpr *Call,
                                      llvm::StringRef Name) {
  const Expr *Object = Call->getImplicitObjectArgument();
  if (isCutName(Name))
    return Carries::none();
  if (Name == "requires_grad_" || Name == "set_requires_grad") {
    if (Call->getNumArgs() > 0 && !isa<CXXDefaultArgExpr>(Call->getArg(0)) &&
        evaluateOptionalBool(Call->getArg(0), Ctx) == OptionalBool::False)
      return of(Object, WholeValue);
    // Only a leaf can be made to require gradients.
    return of(Object, WholeValue).mayHoldGraph() ? Carries::graph()
                                                 : Carries::leaf();
  }
  if ((Name == "to" || Name == "type" || Name == "toType") &&
      llvm::any_of(Call->arguments(), [&](const Expr *Arg) {
        return isIntegralDtype(Arg, Ctx);
      }))
    return Carries::none();
  // A tensor made with the object's options only (`x.new_zeros(sizes)`).
  if (Name.starts_with("new_") && isTensorType(Object->getType()))
    return Carries::none();
  // `x.to(other)`, `x.type_as(other)`, `x.view_as(other)`: the other
  // tensor lends its dtype, device or shape, not its history.
  if (llvm::is_contained({"to", "type_as", "view_as", "reshape_as",
                          "expand_as"},
                         Name) &&
      isTensorType(Object->getType()))
    return of(Object, WholeValue).derived();
  llvm::SmallVector<const Expr *, 4> Operands{Object};
  Operands.append(Call->arg_begin(), Call->arg_end());
  return anyOf(Operands).derived();
}

Carries HistoryAnalysis::ofTorchFunction(const CallExpr *Call,
                                         llvm::StringRef Name) {
  // torch::autograd::grad(outputs, ..., create_graph=true): the gradients
  // are differentiable themselves, with a graph back through the outputs'
  // (a double backward keeps both). Without create_graph they carry none
  // ("grad" is a cut below).
  if (buildsDifferentiableGradients(Call, Ctx))
    return of(Call->getArg(0), WholeValue).derived();
  if (isCutName(Name))
    return Carries::none();
  if (isFactory(Name) || Name.ends_with("_like")) {
    for (const Expr *Arg : Call->arguments()) {
      RequiresGradFinder Finder(Ctx);
      Finder.walk(Arg);
      if (Finder.Found)
        return Carries::leaf();
    }
    return Carries::none();
  }
  if (Name == "requires_grad")
    return Carries::none(); // TensorOptions, not a tensor
  return anyOf(llvm::ArrayRef(Call->getArgs(), Call->getNumArgs())).derived();
}

/// For a local object of a user class that holds tensors (not a module),
/// built in view by a constructor whose body is not in the unit
/// (`Categorical dist(probs);`): the tensors it was built from, which its
/// methods compute with. Empty for anything else.
static llvm::SmallVector<const Expr *, 2>
builtFrom(const Expr *Object) {
  llvm::SmallVector<const Expr *, 2> Args;
  const auto *Var = dyn_cast_or_null<VarDecl>(
      referencedDecl(stripWrappers(Object)->IgnoreParenImpCasts()));
  if (!Var || !Var->hasLocalStorage() || Var->getType()->isReferenceType())
    return Args;
  const CXXRecordDecl *RD = recordOf(Var->getType());
  if (!RD || isModuleClass(RD) || RD->isInStdNamespace() ||
      holdsTensors(Var->getType()) || !holdsTensorsOrFields(Var->getType()))
    return Args;
  const auto *Construct =
      dyn_cast_or_null<CXXConstructExpr>(stripWrappers(Var->getInit()));
  if (!Construct || !Construct->getConstructor() ||
      Construct->getConstructor()->hasBody())
    return Args;
  for (const Expr *Arg : Construct->arguments())
    if (holdsTensors(Arg->getType()))
      Args.push_back(Arg);
  return Args;
}

/// The arguments of \p Call, without the callable itself for a call of an
/// object's operator().
static llvm::ArrayRef<const Expr *> callArguments(const CallExpr *Call) {
  llvm::ArrayRef<const Expr *> Args(Call->getArgs(), Call->getNumArgs());
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
      Op && Op->getOperator() == OO_Call)
    return Args.drop_front();
  return Args;
}

/// Whether \p Element of what \p Call returns is a field of a struct of
/// tensors: what is known of the whole does not say which of its fields
/// carry (a loss struct whose logged parts are detached).
static bool asksFieldOfStruct(const CallExpr *Call, int Element) {
  return Element >= 0 && isTensorAggregate(Call->getType());
}

Carries HistoryAnalysis::ofOpaqueCall(const CallExpr *Call,
                                      const FunctionDecl *FD, int Element) {
  // One field of a struct of tensors computed elsewhere.
  if (asksFieldOfStruct(Call, Element))
    return Carries::unknown();
  llvm::SmallVector<const Expr *, 4> Operands;
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call)) {
    // A distribution built from the policy's output: its methods compute
    // with what it was built from, and what it holds; a draw from it takes
    // neither (a plain struct's fields are read as they are).
    const Expr *Object = Member->getImplicitObjectArgument();
    if (!Options.names().namesDraw(FD)) {
      Operands.push_back(Object);
      Operands.append(builtFrom(Object));
    } else if (mayHoldTensors(Object->getType())) {
      Operands.push_back(Object);
    }
  }
  auto Arguments = callArguments(Call);
  llvm::append_range(Operands, Arguments);
  Carries Handed = anyOf(Operands);
  // Handed a model and what may hold tensors (`energy(wavefunction, x)`):
  // the model's parameters require gradients, and it runs the model, unless
  // its name says it evaluates (such code runs under its own guard).
  if (llvm::any_of(Arguments,
                   [](const Expr *Arg) {
                     return isModuleClass(recordOf(Arg->getType(),
                                                   /*ThroughPointer=*/true));
                   }) &&
      llvm::any_of(Arguments,
                   [](const Expr *Arg) { return mayHoldTensors(Arg->getType()); }) &&
      !Options.names().namesEvaluation(FD))
    Handed |= Carries::leaf();
  // Handed history, it returns history: that is how losses are computed.
  if (Handed.requiresGrad() && Options.OpaqueCallsPassHistory &&
      !Options.names().namesMetric(FD)) {
    if (AssumedSet.insert(Call).second)
      Assumed.push_back(Call);
    return Carries::graph();
  }
  return Carries::unknown();
}

std::optional<Carries> HistoryAnalysis::ofSummary(const CallExpr *Call,
                                                  const FunctionDecl *FD,
                                                  int Element) {
  // The unit's own body says more.
  if (!Options.Summaries || !FD ||
      !userBodyNotInUnit(FD, Ctx.getSourceManager()))
    return std::nullopt;
  std::optional<Carries> Result = summarised(Call, FD, Element);
  // An override may run another body: as for a body in the unit
  // (ofFunctionResult), the summarised body's history counts, and any other
  // answer is left to the rule for opaque calls.
  if (Result && mayBeOverridden(dyn_cast<CXXMethodDecl>(FD)) &&
      !Result->mayHoldGraph())
    return std::nullopt;
  return Result;
}

std::optional<Carries> HistoryAnalysis::summarised(const CallExpr *Call,
                                                   const FunctionDecl *FD,
                                                   int Element) {
  const FunctionSummary *S = Options.Summaries->find(FD);
  if (!S)
    return std::nullopt;
  // Summaries know the outermost elements: the whole of that one.
  auto It = S->find(Element >= 0 ? elementHead(Element) : WholeValue);
  // A field of a struct of tensors is no element of a tuple.
  if (It == S->end() && !asksFieldOfStruct(Call, Element))
    It = S->find(WholeValue);
  if (It == S->end())
    return std::nullopt;
  // What it is handed: its arguments, and the object of a method, unless
  // that is a module (whose parameters the summary counts already).
  llvm::SmallVector<const Expr *, 4> Operands;
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call)) {
    const Expr *Object = Member->getImplicitObjectArgument();
    if (!isModuleClass(recordOf(Object->getType(), /*ThroughPointer=*/true)))
      Operands.push_back(Object);
  }
  llvm::append_range(Operands, callArguments(Call));
  Carries Handed = anyOf(Operands);
  const ReturnSummary &R = It->second;
  Carries Result = Handed.requiresGrad() ? R.Handed : R.NotHanded;
  if (!Handed.requiresGrad() && Handed.mayBeUnknown() && R.Handed != R.NotHanded)
    Result |= Carries::unknown();
  // A summary that does not know either: the rule for opaque calls.
  if (Result.mayBeUnknown() && !Result.requiresGrad())
    return std::nullopt;
  return Result;
}

std::optional<Carries> HistoryAnalysis::ofVirtualCall(const CallExpr *Call,
                                                      int Element) {
  const auto *Member = dyn_cast<CXXMemberCallExpr>(Call);
  const CXXMethodDecl *MD = Member ? Member->getMethodDecl() : nullptr;
  if (!MD || !mayBeOverridden(MD))
    return std::nullopt;
  // `Base::f()` runs Base's body, whatever the object is.
  if (const auto *Callee = dyn_cast<MemberExpr>(Member->getCallee()->IgnoreParens());
      Callee && Callee->hasQualifier())
    return std::nullopt;
  // The unit must have the class's hierarchy in view, not only the class
  // (whose subclasses may all be elsewhere).
  llvm::ArrayRef<const CXXMethodDecl *> Others = VirtualOverriders.of(MD);
  if (Others.empty() && !VirtualOverriders.derivedInView(MD->getParent()))
    return std::nullopt;
  llvm::SmallVector<const CXXMethodDecl *, 4> Bodies;
  if (!MD->isPureVirtual())
    Bodies.push_back(MD);
  for (const CXXMethodDecl *Other : Others)
    if (!Other->isPureVirtual())
      Bodies.push_back(Other);
  const SourceManager &SM = Ctx.getSourceManager();
  Carries Result = Carries::none();
  for (const CXXMethodDecl *Body : Bodies) {
    const FunctionDecl *Def = Body->getDefinition();
    std::optional<Carries> One;
    if (Def && Def->hasBody() && !SM.isInSystemHeader(Def->getLocation())) {
      if (!mayFollowInto(Def))
        return std::nullopt;
      CallStack.push_back(Call);
      One = returnedBy(Def, Element);
      CallStack.pop_back();
    } else if (Options.Summaries && userBodyNotInUnit(Body, SM)) {
      One = summarised(Call, Body, Element);
    }
    if (!One || One->mayBeUnknown())
      return std::nullopt;
    Result |= *One;
  }
  return Result;
}

Carries HistoryAnalysis::returnedBy(const FunctionDecl *Def, int Element) {
  Carries Result = Carries::none();
  if (!Def || !Def->hasBody())
    return Carries::unknown();
  // A guard over the return statement records nothing new, but a value
  // computed before it keeps its graph: each value is read as it was made.
  for (const Expr *Value : returnedValues(Def->getBody()))
    Result |= of(Value, Element);
  return Result;
}

bool HistoryAnalysis::mayFollowInto(const FunctionDecl *Def) const {
  return CallStack.size() + ConstructStack.size() < 4 &&
         llvm::none_of(ConstructStack,
                       [&](const CXXConstructExpr *Active) {
                         return Active->getConstructor()->getDefinition() == Def;
                       }) &&
         llvm::none_of(CallStack, [&](const CallExpr *Active) {
           return Active->getDirectCallee() &&
                  Active->getDirectCallee()->getDefinition() == Def;
         });
}

std::optional<Carries> HistoryAnalysis::ofForwardInView(const CallExpr *Call,
                                                        int Element) {
  const auto *Member = dyn_cast<CXXMemberCallExpr>(Call);
  const CXXMethodDecl *MD = Member ? Member->getMethodDecl() : nullptr;
  if (!MD || mayBeOverridden(MD))
    return std::nullopt;
  const FunctionDecl *Def = MD->getDefinition();
  if (!Def || !Def->hasBody() ||
      Ctx.getSourceManager().isInSystemHeader(Def->getLocation()) ||
      !mayFollowInto(Def))
    return std::nullopt;
  // The module's mode at the call, when known: a branch on is_training()
  // that it does not take returns nothing here.
  ModuleMode Mode =
      trainingThroughout(Member->getImplicitObjectArgument(),
                         enclosingFunction(Call, Ctx), Ctx)
          ? ModuleMode::Train
          : ModuleMode::None;
  CallStack.push_back(Call);
  Carries Result = Carries::none();
  for (const Expr *Value : returnedValues(Def->getBody())) {
    if (inBranchNotTakenIn(Mode, Value, Def, Ctx))
      continue;
    Result |= of(Value, Element);
    if (Result.mayHoldGraph() || Result.mayBeUnknown())
      break;
  }
  CallStack.pop_back();
  if (Result.mayHoldGraph() || Result.mayBeUnknown())
    return std::nullopt;
  return Result;
}

Carries HistoryAnalysis::ofFunctionResult(const FunctionDecl *FD,
                                          const CallExpr *Call, int Element) {
  const FunctionDecl *Def = FD->getDefinition();
  if (!Def || !Def->hasBody() ||
      Ctx.getSourceManager().isInSystemHeader(Def->getLocation()))
    return ofOpaqueCall(Call, FD, Element);
  if (!mayFollowInto(Def))
    return Carries::unknown();
  CallStack.push_back(Call);
  Carries Result = Carries::none();
  for (const Expr *Value : returnedValues(Def->getBody())) {
    Result |= of(Value, Element);
    if (Result.mayHoldGraph())
      break;
  }
  CallStack.pop_back();
  // A virtual method may be overridden where the unit cannot see.
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  if (mayBeOverridden(MD) && !Result.mayHoldGraph() &&
      isa<CXXMemberCallExpr>(Call) &&
      !cast<CXXMemberCallExpr>(Call)->getMethodDecl()->isPureVirtual())
    Result |= ofOpaqueCall(Call, FD, Element);
  return Result;
}

Carries HistoryAnalysis::ofField(const FieldDecl *Field) {
  const auto *Class = dyn_cast<CXXRecordDecl>(Field->getParent());
  if (!Class || !isModuleClass(Class) || !isTensorType(Field->getType()))
    return Carries::unknown();
  // LibTorch's own modules register their tensors (weight, bias, ...) as
  // parameters.
  if (isInNamespace(Class, {"torch"}))
    return Carries::leaf();
  // A module's tensor member is a parameter when registered as one.
  Carries Result = Carries::unknown();
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
        return Carries::leaf();
      if (FD && FD->getIdentifier() && FD->getName() == "register_buffer")
        Result = Carries::none();
    }
  }
  return Result;
}

Carries HistoryAnalysis::ofDecl(const ValueDecl *D, const Expr *Use,
                                int Element) {
  if (const auto *Binding = dyn_cast<BindingDecl>(D)) {
    const auto *Whole = dyn_cast_or_null<DecompositionDecl>(Binding->getDecomposedDecl());
    if (!Whole)
      return Carries::unknown();
    auto Bindings = Whole->bindings();
    auto It = llvm::find(Bindings, Binding);
    if (It == Bindings.end())
      return ofDecl(Whole, Use, WholeValue);
    return ofDecl(Whole, Use,
                  elementPath(static_cast<int>(It - Bindings.begin()), Element));
  }
  if (const auto *Field = dyn_cast<FieldDecl>(D))
    return ofMember(Field, Use, Element);
  const auto *Var = dyn_cast<VarDecl>(D);
  if (!Var)
    return Carries::none(); // an enumerator, a function
  if (!Var->hasLocalStorage())
    return Carries::unknown(); // a global or static: written who knows where
  return ofLocal(Var, Use, Element);
}

Carries HistoryAnalysis::ofParameter(const ParmVarDecl *Param, int Element,
                                     bool &Resolved) {
  Resolved = false;
  const auto *Function = dyn_cast<FunctionDecl>(Param->getDeclContext());
  if (!Function)
    return Carries::unknown();
  unsigned Index = Param->getFunctionScopeIndex();
  // Inside a constructor we were led into: the argument of that
  // construction.
  for (size_t I = ConstructStack.size(); I-- > 0;) {
    const CXXConstructExpr *Construct = ConstructStack[I];
    if (Construct->getConstructor()->getDefinition() != Function->getDefinition())
      continue;
    Resolved = true;
    if (Index >= Construct->getNumArgs() ||
        isa<CXXDefaultArgExpr>(Construct->getArg(Index)))
      return Carries::unknown();
    auto Saved = ConstructStack;
    ConstructStack.resize(I);
    Carries Result = of(Construct->getArg(Index), Element);
    ConstructStack = std::move(Saved);
    return Result;
  }
  // Inside a callee we were led into: the argument of that call.
  for (size_t I = CallStack.size(); I-- > 0;) {
    const CallExpr *Call = CallStack[I];
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || Callee->getDefinition() != Function->getDefinition())
      continue;
    Resolved = true;
    const Expr *Arg = argumentFor(Call, Index);
    if (!Arg)
      return Carries::unknown();
    auto Saved = CallStack;
    CallStack.resize(I);
    Carries Result = of(Arg, Element);
    CallStack = std::move(Saved);
    return Result;
  }
  // Summarising a function: what its callers are assumed to pass.
  if (Options.UnresolvedParameters) {
    Resolved = true;
    return *Options.UnresolvedParameters;
  }
  // A method is also called through the methods it overrides: a call of
  // the base's virtual method passes its arguments to this one.
  llvm::SmallVector<const FunctionDecl *, 2> Called{Function};
  if (isa<CXXMethodDecl>(Function))
    for (size_t I = 0; I < Called.size() && I < 8; ++I)
      for (const CXXMethodDecl *Base :
           cast<CXXMethodDecl>(Called[I])->overridden_methods())
        if (!llvm::is_contained(Called, Base))
          Called.push_back(Base);
  // What calls in other units pass it, from their summaries.
  Carries Foreign = Carries::none();
  if (Options.Summaries)
    for (const FunctionDecl *F : Called)
      if (std::optional<PassedSummary> P = Options.Summaries->passed(F, Index)) {
        Foreign |= P->Passed;
        if (P->Passed.mayHoldGraph())
          ForeignWitness.try_emplace(Param, *P);
      }
  // Otherwise: what its call sites in the unit pass.
  std::optional<llvm::SmallVector<const CallExpr *, 4>> Sites;
  if (Callers && CallSiteDepth < 3)
    for (const FunctionDecl *F : Called)
      if (auto Of = Callers->of(F)) {
        if (!Sites)
          Sites.emplace();
        Sites->append(Of->begin(), Of->end());
      }
  if (!Sites || Sites->empty()) {
    Resolved = !Foreign.isNone();
    return Resolved ? Foreign : Carries::unknown();
  }
  Resolved = true;
  auto Saved = std::move(CallStack);
  CallStack.clear();
  ++CallSiteDepth;
  Carries Result = Carries::none();
  for (const CallExpr *Site : *Sites) {
    const Expr *Arg = argumentFor(Site, Index);
    Carries Here = Arg ? of(Arg, Element) : Carries::unknown();
    if (Here.mayHoldGraph() && !Witness.count(Param))
      Witness[Param] = Site;
    Result |= Here;
  }
  --CallSiteDepth;
  CallStack = std::move(Saved);
  return Result | Foreign;
}

Carries HistoryAnalysis::ofLocal(const VarDecl *Var, const Expr *Use,
                                 int Element) {
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
    return Carries::unknown();
  bool IsTensor = isTensorType(Var->getType());
  Carries Result = Carries::none();
  for (const Definition &Def : Flow->reachingDefinitions(Var, At)) {
    // A value the function goes on to use as an index is an integer or
    // boolean tensor, which autograd records nothing for.
    if (Indices.usedAsIndex(*Flow, Var, Def))
      continue;
    if (Def.Kind == Definition::Entry) {
      bool Resolved = false;
      if (const auto *Param = dyn_cast<ParmVarDecl>(Var))
        Result |= ofParameter(Param, Element, Resolved);
      if (!Resolved)
        Result |= Carries::unknown();
      continue;
    }
    Result |= ofDefinition(Def, IsTensor, Element);
    if (Result.mayHoldGraph())
      break;
  }
  return Result;
}

Carries HistoryAnalysis::ofDefinition(const Definition &Def, bool IsTensor,
                                     int Element) {
  // out.recon = ...: only the field asked for.
  if (Def.Field >= 0 && Element >= 0 && Def.Field != elementHead(Element))
    return Carries::none();
  Carries Result = Carries::none();
  for (const Expr *Value : Def.Values) {
    // The in-place call itself (requires_grad_) stands for its result.
    if (Value == Def.At) {
      if (!guarded(Value))
        Result |= ofCall(cast<CallExpr>(Value), WholeValue);
      continue;
    }
    // Under a guard an in-place op on a tensor records nothing; a store or
    // a copy of a value keeps whatever graph the value was built with.
    if (IsTensor && Def.Kind == Definition::Update && guarded(Value))
      continue;
    int Part = Def.Element >= 0 ? elementPath(Def.Element, Element)
               : Def.Field >= 0
                   ? (Element >= 0 ? elementRest(Element) : WholeValue)
                   : (Def.Kind == Definition::Replace ? Element : WholeValue);
    Carries Here = of(Value, Part);
    // t.add_(x): t is now computed from x.
    Result |= Def.Kind == Definition::Update && IsTensor ? Here.derived() : Here;
  }
  return Result;
}

} // namespace torch_tidy::analysis
