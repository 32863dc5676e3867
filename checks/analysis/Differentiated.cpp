//===--- Differentiated.cpp - D: does a value reach a backward pass? ------===//

#include "checks/analysis/Differentiated.h"
#include "checks/analysis/SummaryData.h"

#include "checks/analysis/BackwardPasses.h"
#include "checks/analysis/ExprUtils.h"
#include "checks/analysis/FunctionFlow.h"
#include "checks/analysis/History.h"
#include "checks/analysis/LoopScope.h"
#include "checks/analysis/TensorSources.h"
#include "checks/analysis/TorchTypes.h"
#include "checks/analysis/Walk.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SetVector.h"

using namespace clang;

namespace torch_tidy::analysis {

namespace {
/// The variables and fields \p E's value is stored into where it is
/// written: `auto v = E`, `v = E`, `v.push_back(E)`, `std::tie(a, b) = E`,
/// `auto [a, b] = E`.
DeclSet storedInto(const Expr *E, ASTContext &Ctx) {
  DeclSet Result;
  DynTypedNode Node = DynTypedNode::create(*E);
  // Up to the statement: real headers wrap each operand of an operator in
  // several nodes (temporaries, casts, cleanups).
  for (unsigned Depth = 0; Depth < 128; ++Depth) {
    auto Parents = Ctx.getParents(Node);
    if (Parents.empty())
      break;
    const DynTypedNode &Parent = Parents[0];
    if (const auto *Var = Parent.get<VarDecl>()) {
      Result.insert(Var);
      if (const auto *Decomp = dyn_cast<DecompositionDecl>(Var))
        for (const BindingDecl *Binding : Decomp->bindings())
          Result.insert(Binding);
      break;
    }
    if (const auto *Op = Parent.get<CXXOperatorCallExpr>();
        Op && Op->isAssignmentOp() && Op->getNumArgs() == 2) {
      if (const ValueDecl *D = referencedDecl(containerOf(Op->getArg(0))))
        Result.insert(D);
      // A field of a local struct (`output.values = critic_(features)`):
      // the struct holds it too, and goes where it goes (`return output`).
      for (const VarDecl *Whole : localStructsWrittenBy(Op->getArg(0)))
        Result.insert(Whole);
      for (const ValueDecl *D : tiedDecls(Op->getArg(0)))
        Result.insert(D);
      break;
    }
    if (const auto *Call = Parent.get<CXXMemberCallExpr>()) {
      // v.push_back(E), buf.index_put_(i, E), ...; E.sum() goes on.
      const Expr *Object = Call->getImplicitObjectArgument();
      if (Object && !contains(Object, E))
        if (const ValueDecl *D = referencedDecl(containerOf(Object)))
          if (auto Def = definitionAt(Call, D);
              Def && Def->Kind == Definition::Update) {
            Result.insert(D);
            break;
          }
    }
    // A copy cut from the graph (`auto old = E.detach()`) stores none of
    // its history.
    const auto *ParentExpr = Parent.get<Expr>();
    if (!ParentExpr || cutsHistory(ParentExpr, Ctx))
      break;
    Node = Parent;
  }
  return Result;
}

/// What holds \p E's value where it is made: the variables and fields it is
/// stored into (storedInto), and the variable \p E names, if any.
DeclSet heldBy(const Expr *E, ASTContext &Ctx) {
  DeclSet Held = storedInto(E, Ctx);
  if (const ValueDecl *D = referencedDecl(E))
    Held.insert(D);
  return Held;
}

/// Whether a return statement of \p Body returns \p E or what a holder of
/// it computes; with \p HistoryOnly, other than through a copy cut from the
/// graph.
bool returnsValue(const Expr *E, const DeclSet &Holders, const Stmt *Body,
                  const TensorSources &Sources, const ASTContext &Ctx,
                  HistoryAnalysis *History, bool HistoryOnly = false) {
  for (const Expr *Value : returnedValues(Body)) {
    // A number, or a value cut from the graph, takes no history out; nor
    // does one that H knows carries none (the indices of a max(), an
    // argmax written into a fresh tensor).
    if (!holdsTensorsOrFields(Value->getType()) || cutsHistory(Value, Ctx) ||
        (History && History->history(Value) == Carries::none()))
      continue;
    if (contains(Value, E))
      return true;
    for (const ValueDecl *D : HistoryOnly
                                  ? Sources.historySourcesOf(Value, Ctx)
                                  : Sources.sourcesOf(Value))
      if (Holders.contains(D))
        return true;
  }
  return false;
}

/// The lambda around \p At whose call operator is \p Method.
const LambdaExpr *lambdaOf(const CXXMethodDecl *Method, const Expr *At,
                           ASTContext &Ctx) {
  const auto *Lambda = nearestAncestor<LambdaExpr>(*At, Ctx);
  return Lambda && Lambda->getCallOperator()->getCanonicalDecl() ==
                       Method->getCanonicalDecl()
             ? Lambda
             : nullptr;
}

/// Whether the closure of \p Lambda is handed to a test or benchmark
/// framework (Catch2's `BENCHMARK("name") { return f(); };` assigns it to a
/// Catch::Benchmark::Benchmark): the framework runs it and measures or
/// compares what it returns.
bool runByTestHarness(const LambdaExpr *Lambda, ASTContext &Ctx) {
  ClosureHandOff HandOff =
      closureHandOff(Lambda, Ctx, [](const CXXConstructExpr *Built) {
        return isTestHarnessFunction(Built->getConstructor());
      });
  return HandOff.Construct ||
         (HandOff.Call && isTestHarnessFunction(HandOff.Call->getDirectCallee()));
}

/// Whether \p V is handed to a method of the user's class that returns no
/// tensor and of whose class no member may hold history, on evidence
/// (`buffer.add(state, action)` whose body stores `action.detach().clone()`
/// or copies it, detached, into a preallocated buffer): the object keeps
/// none of what it is handed.
/// - Body in view: H says what every method of the unit leaves in each
///   member, the parameters taken from the calls in view, this one among
///   them; no member may hold a graph.
/// - Body in another unit: the project's summaries say that no method of
///   that unit leaves history in any member of the class, and that a call
///   passes that parameter a graph (what a method leaves in a member is
///   worked out from what its callers pass; with no graph passed, none
///   could be left).
/// Otherwise (no summaries, a base out of view, one member that may hold a
/// graph) the object is taken to keep every tensor it is handed.
static bool handedToAKeeperOfNoHistory(const Expr *V, HistoryAnalysis &History) {
  ASTContext &Ctx = History.context();
  const FunctionSummaries *Summaries = History.options().Summaries.get();
  auto Parents = Ctx.getParents(*V);
  const auto *Call =
      Parents.empty() ? nullptr : Parents[0].get<CXXMemberCallExpr>();
  const CXXMethodDecl *MD = Call ? Call->getMethodDecl() : nullptr;
  // What it returns may be what it is handed: only a method that returns
  // no tensor is asked.
  if (!MD || MD->isStatic() || isLibraryFunction(MD) ||
      isModuleClass(MD->getParent()) || mayHoldTensors(MD->getReturnType()))
    return false;
  const FunctionDecl *Def = MD->getDefinition();
  bool InView = Def && Def->hasBody();
  if (!InView && !bodyIsElsewhere(MD, Ctx.getSourceManager()))
    return false;
  unsigned Index = 0;
  while (Index < Call->getNumArgs() && Call->getArg(Index) != V)
    ++Index;
  if (Index == Call->getNumArgs())
    return false;
  if (!InView) {
    // The unit that defines it was summarised (it says what the method
    // differentiates), knowing that a graph comes in.
    std::optional<PassedSummary> In =
        Summaries ? Summaries->passed(MD, Index) : std::nullopt;
    if (!Summaries || !Summaries->differentiatesParameter(MD, Index) || !In ||
        !In->Passed.mayHoldGraph())
      return false;
  }
  const CXXRecordDecl *Class = MD->getParent()->getDefinition();
  if (!Class)
    return false;
  llvm::SmallVector<const CXXRecordDecl *, 4> Work{Class};
  for (unsigned I = 0; I < Work.size() && I < 16; ++I) {
    for (const FieldDecl *Field : Work[I]->fields()) {
      if (InView) {
        if (mayHoldTensors(Field->getType()) &&
            History.memberState(Field).mayHoldGraph())
          return false;
      } else if (const auto *Kept = Summaries->member(Field);
                 Kept && Kept->Passed.mayHoldGraph()) {
        return false;
      }
      // A member of a class of the user's may keep it in its own members.
      if (const CXXRecordDecl *RD =
              recordOf(Field->getType(), /*ThroughPointer=*/true);
          InView && RD && !inLibraryNamespace(RD))
        return false;
    }
    for (const CXXBaseSpecifier &Base : Work[I]->bases()) {
      const CXXRecordDecl *RD = Base.getType()->getAsCXXRecordDecl();
      if (!RD || !(RD = RD->getDefinition()))
        return false; // a base out of view may keep it
      Work.push_back(RD);
    }
  }
  return true;
}

/// Lets \p Sources follow no call of a function of the user's, its body
/// in view, that \p History knows returns no history there (one that
/// computes its result under its own guard): what is computed from it
/// takes none along. Nor what a method is handed when, on the evidence of
/// its unit or of the summaries, its class keeps no history
/// (handedToAKeeperOfNoHistory).
void cutWhatCarriesNothing(TensorSources &Sources, HistoryAnalysis *History) {
  if (History)
    Sources.alsoCut([History](const Expr *V) {
      if (!holdsTensorsOrFields(V->getType()))
        return false;
      const auto *Call = dyn_cast<CallExpr>(V);
      const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
      const FunctionDecl *Def = Callee ? Callee->getDefinition() : nullptr;
      if (Def && Def->hasBody() && !isLibraryFunction(Def) &&
          History->history(V) == Carries::none())
        return true;
      return handedToAKeeperOfNoHistory(V, *History);
    });
}

/// Whether \p Function may run, as the function summaries say
/// (FunctionSummaries::runs: a program's function that no unit refers to
/// does not); true without summaries.
static bool mayRun(const FunctionDecl *Function, HistoryAnalysis *History) {
  const FunctionSummaries *Summaries =
      History ? History->options().Summaries.get() : nullptr;
  if (!Summaries)
    return true;
  auto [Key, Name] = FunctionSummaries::caller(Function);
  return Summaries->runs(Key, Name);
}

class Question {
public:
  Question(ASTContext &Ctx, const CallSites &Callers, bool OpaqueCallsMay,
           HistoryAnalysis *History)
      : Ctx(Ctx), Callers(Callers), OpaqueCallsMay(OpaqueCallsMay),
        History(History) {}

  bool ask(const Expr *E, unsigned Depth) {
    const FunctionDecl *Function = enclosingFunction(E, Ctx);
    const Stmt *Body = Function ? Function->getBody() : nullptr;
    if (!Body || Depth > 4)
      return !untrained(); // cannot follow it further: assume it is
    TensorSources Sources(Body);
    cutWhatCarriesNothing(Sources, History);
    DeclSet Holders = Sources.historyFrom(heldBy(E, Ctx), Ctx);
    // A backward pass in the function, whose roots take a graph from it
    // (not through a value cut from it: `loss = v * baseline.detach()`).
    for (const CallExpr *Backward : backwardPassesIn(Body)) {
      const Expr *Roots = backwardRoots(Backward);
      if (!Roots)
        continue;
      if (contains(Roots, E))
        return true;
      for (const ValueDecl *D : Sources.historySourcesOf(Roots, Ctx))
        if (Holders.contains(D))
          return true;
    }
    // Members and globals: any backward pass of the unit.
    for (const ValueDecl *D : Holders)
      if ((isa<FieldDecl>(D) || (isa<VarDecl>(D) &&
                                 !cast<VarDecl>(D)->hasLocalStorage())) &&
          walkedAnywhere(D))
        return true;
    // Returned: what the callers do with it.
    if (returnsValue(E, Holders, Body, Sources, Ctx, History)) {
      // Callers outside the unit may do anything with what a function
      // returns when the unit calls it nowhere, unless the summaries say
      // what they do; the function asked about itself is judged by the
      // calls the unit has. A lambda the unit never calls itself is run by
      // whatever its closure is handed to: unknown, unless that is a test or
      // benchmark framework, which compares or measures what it returns.
      auto Sites = Callers.of(Function);
      const UsedSummary *Elsewhere = usedElsewhere(Function);
      const auto *Method = dyn_cast<CXXMethodDecl>(Function);
      bool IsLambda = Method && Method->getParent()->isLambda();
      const LambdaExpr *Lambda = IsLambda && Sites && Sites->empty()
                                     ? lambdaOf(Method, E, Ctx)
                                     : nullptr;
      bool ForHarness = Lambda && runByTestHarness(Lambda, Ctx);
      if (!ForHarness) {
        if (Elsewhere && Elsewhere->Differentiated)
          return true;
        // Callers out of view: in a project that trains nowhere, they
        // differentiate nothing either (a function that runs nowhere has
        // none to assume anything of).
        if ((!Sites ||
             (Sites->empty() && (Depth > 0 || IsLambda) && !Elsewhere)) &&
            !(mayRun(Function, History) && untrained()))
          return true;
        if (Sites)
          for (const CallExpr *Site : *Sites)
            if (ask(Site, Depth + 1))
              return true;
      }
    }
    // Handed to a function: what it does with it.
    return handedOn(E, Holders, Body, Depth);
  }

private:
  /// What calls in other units do with what \p Function returns, when the
  /// summaries say.
  const UsedSummary *usedElsewhere(const FunctionDecl *Function) const {
    const FunctionSummaries *Summaries =
        History ? History->options().Summaries.get() : nullptr;
    return Summaries && Callers.recordsOnlyElsewhere(Function)
               ? Summaries->used(Function)
               : nullptr;
  }

  bool walkedAnywhere(const ValueDecl *D) {
    for (Decl *TopLevel : userDecls(Ctx)) {
      for (const CallExpr *Backward : backwardPassesInDecl(TopLevel))
        if (const Stmt *Around = enclosingFunctionBody(Backward, Ctx))
          if (walksHistoryOf(Backward, D, TensorSources(Around), Ctx))
            return true;
    }
    return false;
  }


  /// Whether the value, or a variable holding it, is an argument of a call
  /// that may differentiate it.
  bool handedOn(const Expr *E, const DeclSet &Holders, const Stmt *Body,
                unsigned Depth) {
    class Calls : public StmtWalk {
    public:
      llvm::SmallVector<const CallExpr *, 16> All;
      bool visit(Stmt *S) override {
        if (const auto *Call = dyn_cast<CallExpr>(S))
          All.push_back(Call);
        return true;
      }
    } Found;
    Found.walk(Body);
    for (const CallExpr *Call : Found.All) {
      for (unsigned I = 0, N = Call->getNumArgs(); I != N; ++I) {
        const Expr *Arg = Call->getArg(I);
        const ValueDecl *D = referencedDecl(Arg);
        if ((!E || stripWrappers(Arg) != stripWrappers(E)) &&
            !(D && Holders.contains(D) && holdsTensorsOrFields(D->getType())))
          continue; // (a holder of plain numbers hands on no history)
        if (argumentDifferentiated(Call, I, Depth))
          return true;
      }
    }
    return false;
  }

public:
  /// Whether an answer rested on the project training nowhere
  /// (HistoryAnalysis::projectTrainsNowhere): code out of view taken to
  /// differentiate nothing.
  bool AssumedUntrained = false;

  /// Whether the call \p Call may differentiate what it is handed as its
  /// argument \p I.
  bool argumentDifferentiated(const CallExpr *Call, unsigned I,
                              unsigned Depth) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (isForwardCall(Call, History ? History->options().names()
                                    : defaultNameGuesses()) ||
        isBackwardFunction(Callee))
      return false;
    if (!Callee)
      return opaqueMay();
    // A std::function runs the closures it holds: those in view are asked
    // as functions are; one not in view may differentiate.
    if (CallSites::Closures Run = Callers.closuresRunBy(Call); Run.Invokes) {
      if (I == 0)
        return false; // the std::function itself
      if (!Run.Known)
        return opaqueMay();
      for (const LambdaExpr *Lambda : Run.Lambdas) {
        const CXXMethodDecl *Def = Lambda->getCallOperator();
        if (Def->getDescribedFunctionTemplate() ||
            I - 1 >= Def->getNumParams()) {
          if (opaqueMay())
            return true;
          continue;
        }
        if (paramDifferentiated(Def, Def->getParamDecl(I - 1), Depth + 1))
          return true;
      }
      return false;
    }
    // LibTorch and the standard library do not call backward().
    if (isLibraryFunction(Callee))
      return false;
    unsigned Index = isa<CXXOperatorCallExpr>(Call) &&
                             isa<CXXMethodDecl>(Callee) &&
                             !cast<CXXMethodDecl>(Callee)->isStatic()
                         ? I - 1
                         : I;
    const FunctionDecl *Def = Callee->getDefinition();
    if (!Def || !Def->hasBody())
      // Its body is in another unit: what its summary says, where there
      // is one. A summary says whether it may, counting what its own
      // opaque calls may do, which is no evidence that it does; and
      // whether the code in view there does (a backward pass of its own
      // walks it), which is.
      return opaqueMay() ? differentiatedElsewhere(Callee, Index)
                         : differentiatedInViewElsewhere(Callee, Index);
    // Its body is in the unit: does it differentiate the parameter?
    if (Index >= Def->getNumParams())
      return true;
    return paramDifferentiated(Def, Def->getParamDecl(Index), Depth);
  }

  /// Whether \p Def may differentiate what its parameter \p Param is
  /// handed: in its own body, or in the code it hands it on to.
  bool parameter(const FunctionDecl *Def, const ParmVarDecl *Param) {
    if (paramDifferentiated(Def, Param, 0))
      return true;
    DeclSet From;
    From.insert(Param);
    return handedOn(nullptr, TensorSources(Def->getBody()).historyFrom(From, Ctx),
                    Def->getBody(), 0);
  }

private:
  /// Whether the project trains nowhere; an answer that rests on it says
  /// so in AssumedUntrained.
  bool untrained() {
    if (!History || !History->projectTrainsNowhere())
      return false;
    AssumedUntrained = true;
    return true;
  }

  /// Whether code out of view may differentiate what it is handed: when
  /// the question counts it (OpaqueCallsMay), unless the project trains
  /// nowhere.
  bool opaqueMay() { return OpaqueCallsMay && !untrained(); }

  /// Whether a function whose body is in another unit may differentiate
  /// what its parameter \p Index is handed: yes, unless the summaries say
  /// it does not. A virtual method may run an override's body.
  bool differentiatedElsewhere(const FunctionDecl *Callee,
                               unsigned Index) const {
    const FunctionSummaries *Summaries =
        History ? History->options().Summaries.get() : nullptr;
    if (!Summaries || !bodyIsElsewhere(Callee, Ctx.getSourceManager()))
      return true;
    return Summaries->differentiatesParameter(Callee, Index).value_or(true);
  }

  /// Whether a function whose body is in another unit differentiates what
  /// its parameter \p Index is handed in the code in view there, as the
  /// summaries say: no when they do not say.
  bool differentiatedInViewElsewhere(const FunctionDecl *Callee,
                                     unsigned Index) const {
    const FunctionSummaries *Summaries =
        History ? History->options().Summaries.get() : nullptr;
    return Summaries && bodyIsElsewhere(Callee, Ctx.getSourceManager()) &&
           Summaries->differentiatesParameterInView(Callee, Index)
               .value_or(false);
  }

  bool paramDifferentiated(const FunctionDecl *Def, const ParmVarDecl *Param,
                           unsigned Depth) {
    if (Depth > 3)
      return true;
    TensorSources Sources(Def->getBody());
    for (const CallExpr *Backward : backwardPassesIn(Def->getBody()))
      if (walksHistoryOf(Backward, Param, Sources, Ctx))
        return true;
    DeclSet From;
    From.insert(Param);
    DeclSet Holders = Sources.historyFrom(From, Ctx);
    for (const ValueDecl *D : Holders)
      if (isa<FieldDecl>(D) && walkedAnywhere(D))
        return true;
    return false;
  }

  ASTContext &Ctx;
  const CallSites &Callers;
  bool OpaqueCallsMay;
  HistoryAnalysis *History;
};
} // namespace

bool mayBeDifferentiated(const Expr *E, ASTContext &Ctx,
                         const CallSites &Callers, bool OpaqueCallsMay,
                         HistoryAnalysis *History, bool *AssumedUntrained) {
  Question Ask(Ctx, Callers, OpaqueCallsMay, History);
  bool May = Ask.ask(E, 0);
  if (AssumedUntrained)
    *AssumedUntrained = !May && Ask.AssumedUntrained;
  return May;
}

bool argumentMayBeDifferentiated(const CallExpr *Call, unsigned Arg,
                                 ASTContext &Ctx, const CallSites &Callers,
                                 bool OpaqueCallsMay, HistoryAnalysis *History) {
  return Question(Ctx, Callers, OpaqueCallsMay, History)
      .argumentDifferentiated(Call, Arg, 0);
}

bool callerMayDifferentiate(const CallExpr *Site, ASTContext &Ctx,
                            const CallSites &Callers, bool OpaqueCallsMay,
                            HistoryAnalysis *History) {
  return Question(Ctx, Callers, OpaqueCallsMay, History).ask(Site, 1);
}

/// Whether \p E, or one of \p Holders, is put into a `std::any` in \p Body
/// (constructed from it, or assigned it: `pack["bias"] = bias;` in a
/// `std::map<std::string, std::any>`) that leaves the function: returned,
/// or not a variable of its own frame. Its type is erased there, so the
/// value is not followed further: it may be anything.
static bool leavesTypeErased(const Stmt *Body, const Expr *E,
                             const DeclSet &Holders, ASTContext &Ctx) {
  auto IsAny = [](const CXXMethodDecl *MD) {
    const CXXRecordDecl *RD = MD ? MD->getParent() : nullptr;
    return RD && RD->isInStdNamespace() && RD->getIdentifier() &&
           RD->getName() == "any";
  };
  auto Holds = [&](const Expr *Arg) {
    const ValueDecl *D = referencedDecl(Arg);
    return stripWrappers(Arg) == stripWrappers(E) ||
           (D && Holders.contains(D));
  };
  // Variables of the frame that a return statement names.
  DeclSet Returned;
  class Returns : public StmtWalk {
  public:
    explicit Returns(DeclSet &Out) : Out(Out) {}
    bool visit(Stmt *S) override {
      if (const auto *Return = dyn_cast<ReturnStmt>(S))
        if (const ValueDecl *D = referencedDecl(Return->getRetValue()))
          Out.insert(D);
      return true;
    }
    DeclSet &Out;
  } FindReturns(Returned);
  FindReturns.walk(Body);
  auto Leaves = [&](const ValueDecl *Holder) {
    const auto *Var = dyn_cast_or_null<VarDecl>(Holder);
    return !Var || !Var->hasLocalStorage() ||
           Var->getType()->isReferenceType() || Returned.contains(Var);
  };
  // Where a std::any built here goes: the variable it initialises, or a
  // return statement (leaves).
  auto ConstructedInto = [&](const Expr *Construct) -> bool {
    DynTypedNode Node = DynTypedNode::create(*Construct);
    for (unsigned Depth = 0; Depth < 32; ++Depth) {
      auto Parents = Ctx.getParents(Node);
      if (Parents.empty())
        return true;
      if (Parents[0].get<ReturnStmt>())
        return true;
      if (const auto *Var = Parents[0].get<VarDecl>())
        return Leaves(Var);
      if (!Parents[0].get<Expr>())
        return false; // a statement of its own: dropped there
      Node = Parents[0];
    }
    return true;
  };
  auto Erases = [&](const Stmt *S) {
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(S);
        Construct && IsAny(Construct->getConstructor()) &&
        llvm::any_of(Construct->arguments(), Holds))
      return ConstructedInto(Construct);
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S);
        Op && Op->getNumArgs() == 2 &&
        IsAny(dyn_cast_or_null<CXXMethodDecl>(Op->getDirectCallee())) &&
        Holds(Op->getArg(1)))
      return Leaves(referencedDecl(containerOf(Op->getArg(0))));
    return false;
  };
  class Finder : public StmtWalk {
  public:
    explicit Finder(llvm::function_ref<bool(const Stmt *)> Erases)
        : Erases(Erases) {}
    bool Found = false;
    bool visit(Stmt *S) override {
      Found |= Erases(S);
      return !Found;
    }

  private:
    llvm::function_ref<bool(const Stmt *)> Erases;
  } Found(Erases);
  Found.walk(Body);
  return Found.Found;
}

/// Whether \p D is a variable of its function's own frame: it dies when
/// the function returns.
static bool isFrameLocal(const ValueDecl *D, ASTContext &Ctx) {
  // A number (an item() kept in a member) takes no history anywhere.
  if (!holdsTensorsOrFields(D->getType()))
    return true;
  if (const auto *Binding = dyn_cast<BindingDecl>(D))
    D = Binding->getDecomposedDecl();
  const auto *Var = dyn_cast_or_null<VarDecl>(D);
  if (!Var || !Var->hasLocalStorage() || Var->isStaticLocal() ||
      Var->getType()->isPointerType())
    return false;
  if (!Var->getType()->isReferenceType())
    return true;
  // The loop variable of a range-based for refers to an element of its
  // range: frame-local when the range is (a local, or a temporary that the
  // loop keeps alive).
  for (const DynTypedNode &Parent : Ctx.getParents(*Var))
    if (const auto *Decl = Parent.get<DeclStmt>())
      for (const DynTypedNode &Loop : Ctx.getParents(*Decl))
        if (const auto *Range = Loop.get<CXXForRangeStmt>();
            Range && Range->getLoopVariable() == Var && Range->getRangeInit()) {
          const Expr *Init = stripWrappers(Range->getRangeInit());
          if (const ValueDecl *Of = referencedDecl(Init->IgnoreParenImpCasts()))
            return isFrameLocal(Of, Ctx);
          return Init->isPRValue();
        }
  return false;
}

/// Whether \p D is a private member that only its class's code, all of it
/// in view, reads, and that none of it hands out: none hands it to a
/// function of the user's whose body is not in view, and no method
/// returns what it is computed from, unless \p Returners takes those
/// methods, whose callers must then drop what they return
/// (`savedResult`, a detector's last boxes, kept to draw the next frames;
/// an image embedding that `predict()` runs a decoder on, returning the
/// masks). What it keeps dies with the object, and D answers for it from
/// the backward passes of the unit. The class has no friends, and every
/// method it declares has its body in view, except those declared by a
/// macro (generated code, such as Qt's Q_OBJECT, which reaches members only
/// through the methods it calls).
static bool
keptOnlyByItsClass(const ValueDecl *D,
                   llvm::SmallSetVector<const FunctionDecl *, 2> *Returners) {
  const auto *Field = dyn_cast<FieldDecl>(D);
  if (!Field || Field->getAccess() != AS_private)
    return false;
  const auto *Class = dyn_cast<CXXRecordDecl>(Field->getParent());
  if (!Class || !Class->hasDefinition() || Class->isLambda() ||
      Class->hasFriends())
    return false;
  ASTContext &Ctx = Field->getASTContext();
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::SmallVector<const FunctionDecl *, 8> Methods;
  for (const CXXMethodDecl *Method : Class->methods()) {
    if (Method->isImplicit() || Method->isDefaulted() || Method->isDeleted() ||
        Method->isPureVirtual() || Method->getLocation().isMacroID())
      continue;
    const FunctionDecl *Def = nullptr;
    if (!Method->hasBody(Def) || !Def ||
        SM.isInSystemHeader(SM.getExpansionLoc(Def->getLocation())))
      return false;
    Methods.push_back(Def);
  }
  class HandsOut : public StmtWalk {
  public:
    HandsOut(const FieldDecl *Field, const FunctionDecl *Method,
             const TensorSources &Sources, ASTContext &Ctx,
             llvm::SmallSetVector<const FunctionDecl *, 2> *Returners)
        : Field(Field), Method(Method), Sources(Sources), Ctx(Ctx),
          SM(Ctx.getSourceManager()), Returners(Returners) {}
    bool Found = false;
    bool visit(Stmt *S) override {
      if (const auto *Return = dyn_cast<ReturnStmt>(S)) {
        const Expr *Value = Return->getRetValue();
        if (!Value || !holdsTensorsOrFields(Value->getType()) || !from(Value))
          return true;
        // The method's own return (not a lambda's in it), whose callers
        // the asker follows.
        if (Returners && !isa<CXXConstructorDecl>(Method) &&
            enclosingFunction(Return, Ctx) == Method)
          Returners->insert(Method);
        else
          Found = true;
      } else if (const auto *Call = dyn_cast<CallExpr>(S)) {
        const FunctionDecl *Callee = Call->getDirectCallee();
        if (Callee && userBodyNotInUnit(Callee, SM))
          for (const Expr *Arg : Call->arguments())
            Found |= holdsTensorsOrFields(Arg->getType()) && from(Arg);
      }
      return !Found;
    }

  private:
    bool from(const Expr *E) {
      return referencedDecl(E) == Field || Sources.sourcesOf(E).contains(Field);
    }
    const FieldDecl *Field;
    const FunctionDecl *Method;
    const TensorSources &Sources;
    ASTContext &Ctx;
    const SourceManager &SM;
    llvm::SmallSetVector<const FunctionDecl *, 2> *Returners;
  };
  for (const FunctionDecl *Method : Methods) {
    const Stmt *Body = Method->getBody();
    TensorSources Sources(Body);
    HandsOut Finder(Field, Method, Sources, Ctx, Returners);
    Finder.walk(Body);
    if (Finder.Found)
      return false;
    // Nor stored anywhere but in the method's own frame (another member, a
    // global, a reference the caller passed).
    DeclSet From;
    From.insert(Field);
    for (const ValueDecl *Holder : Sources.historyFrom(From, Ctx))
      if (Holder != Field && !isFrameLocal(Holder, Ctx))
        return false;
  }
  return true;
}

/// Whether \p Param is an out-parameter: a non-const lvalue reference
/// through which the function hands a tensor back to its caller.
static bool isOutParameter(const ValueDecl *D, const FunctionDecl *Function) {
  const auto *Param = dyn_cast<ParmVarDecl>(D);
  if (!Param || Param->getDeclContext() != Function)
    return false;
  QualType T = Param->getType();
  return isMutableReference(T) && holdsTensorsOrFields(T.getNonReferenceType());
}

/// The members of its own object in which the method \p Call runs (its
/// body in the unit) leaves what it computes (`features_ = x;` or
/// `outputs_.push_back(x)` in a forward that returns only its last layer):
/// what it records is kept there as well as in its result. The writes are
/// those that reach the method's exit (a member reset before it returns
/// keeps nothing); with \p History, only those whose values carry history.
static llvm::SmallVector<const FieldDecl *, 4>
membersWrittenBy(const CallExpr *Call, ASTContext &Ctx,
                 HistoryAnalysis *History) {
  llvm::SmallVector<const FieldDecl *, 4> Fields;
  const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee());
  const FunctionDecl *Def = nullptr;
  if (!Method || Method->isStatic() || !Method->hasBody(Def))
    return Fields;
  std::optional<FunctionFlow> OwnFlow;
  if (!History)
    OwnFlow.emplace(Def, Ctx);
  for (const FieldDecl *Field : Method->getParent()->fields()) {
    if (!holdsTensors(Field->getType()))
      continue;
    bool Keeps = false;
    if (History)
      Keeps = History->leftInMember(Def, Field).mayHoldGraph();
    else if (OwnFlow->valid())
      Keeps = llvm::any_of(OwnFlow->definitionsAtExit(Field),
                           [](const Definition &Left) {
                             return Left.Kind != Definition::Entry;
                           });
    if (Keeps)
      Fields.push_back(Field);
  }
  return Fields;
}

namespace {
/// historyDiscarded, followed out of a function through what it returns
/// and what it writes into out-parameters: to every call site in the unit,
/// when the unit has them all (and no other unit calls the function).
class Discarded {
public:
  Discarded(ASTContext &Ctx, const CallSites &Callers, HistoryAnalysis *History)
      : Ctx(Ctx), Callers(Callers), History(History) {}

  bool at(const Expr *E, DeclSet *HoldersOut, unsigned Depth) {
    const FunctionDecl *Function = enclosingFunction(E, Ctx);
    const Stmt *Body = Function ? Function->getBody() : nullptr;
    if (!Body)
      return false;
    TensorSources Sources(Body);
    cutWhatCarriesNothing(Sources, History);
    // A variable the caller passed holds itself.
    DeclSet Stored = heldBy(E, Ctx);
    llvm::SmallVector<const ParmVarDecl *, 2> OutParams;
    // The methods that return what a private member keeps it in is
    // computed from.
    llvm::SmallSetVector<const FunctionDecl *, 2> Returners;
    auto Local = [&](const ValueDecl *D) {
      if (isFrameLocal(D, Ctx) || keptOnlyByItsClass(D, &Returners) ||
          readsDropIt(D))
        return true;
      if (!isOutParameter(D, Function))
        return false;
      OutParams.push_back(cast<ParmVarDecl>(D));
      return true;
    };
    if (!llvm::all_of(Stored, Local))
      return false;
    // A method that keeps what it computes in members of its object keeps
    // it there too: those members must drop it as a holder would.
    // What the method returns from them is its result, followed below.
    if (const auto *Call = dyn_cast<CallExpr>(stripWrappers(E))) {
      llvm::SmallSetVector<const FunctionDecl *, 2> FieldReturners;
      for (const FieldDecl *Field : membersWrittenBy(Call, Ctx, History))
        if (!keptOnlyByItsClass(Field, &FieldReturners) && !readsDropIt(Field))
          return false;
      for (const FunctionDecl *Method : FieldReturners)
        if (Method->getCanonicalDecl() !=
            Call->getDirectCallee()->getCanonicalDecl())
          Returners.insert(Method);
    }
    DeclSet Holders = Sources.historyFrom(Stored, Ctx);
    if (!llvm::all_of(Holders, Local) ||
        leavesTypeErased(Body, E, Holders, Ctx))
      return false;
    bool Returned = returnsValue(E, Holders, Body, Sources, Ctx, History);
    // What a method returns from the member it is kept in: each caller of
    // that method must drop it in turn.
    for (const FunctionDecl *Method : Returners) {
      if (Method == Function && Returned)
        continue; // followed below
      bool NoneSeen = false;
      auto Sites =
          callSitesOrNone(Method, Depth, /*OnlyResult=*/true, NoneSeen);
      if (!Sites)
        return false;
      Followed |= !NoneSeen;
      for (const CallExpr *Site : *Sites)
        if (!at(Site, nullptr, Depth + 1))
          return false;
    }
    if (Returned || !OutParams.empty()) {
      // Out of the function: each caller must drop it in turn.
      bool NoneSeen = false;
      auto Sites =
          callSitesOrNone(Function, Depth, OutParams.empty(), NoneSeen);
      if (!Sites)
        return false;
      Followed |= !NoneSeen;
      for (const CallExpr *Site : *Sites) {
        if (Returned && !at(Site, nullptr, Depth + 1))
          return false;
        for (const ParmVarDecl *Param : OutParams) {
          const Expr *Arg = argumentFor(Site, Param->getFunctionScopeIndex());
          if (!Arg || !referencedDecl(Arg) || !at(Arg, nullptr, Depth + 1))
            return false;
        }
      }
    }
    if (HoldersOut)
      *HoldersOut = Holders;
    Question Ask(Ctx, Callers, /*OpaqueCallsMay=*/true, History);
    if (Ask.ask(E, 0))
      return false;
    AssumedUntrained |= Ask.AssumedUntrained;
    return true;
  }

  /// Whether the value was followed out of its function into callers.
  bool Followed = false;
  /// Whether the answer rested on the project training nowhere: callers
  /// or code out of view taken to differentiate nothing and keep nothing.
  bool AssumedUntrained = false;
  /// Where the first call in another unit that the summaries answered
  /// for is.
  std::string ElsewhereAt;
  /// Where the first read of a member that the summaries answered for is.
  std::string ReadAt;

private:
  /// Whether \p D is a member whose every read differentiates nothing of
  /// what it holds: in the other units, as the summaries say (which must
  /// know of reads of it), and in this unit as it is now (the summaries
  /// may describe an older version of it).
  bool readsDropIt(const ValueDecl *D) {
    const auto *Field = dyn_cast<FieldDecl>(D);
    const FunctionSummaries *Summaries =
        History ? History->options().Summaries.get() : nullptr;
    if (!Field || !Summaries)
      return false;
    MemberReadUse Use = memberReadUse(Field, Ctx, Callers, *History,
                                      /*OnlySummarised=*/true);
    if (!Use.Summarised || Use.Differentiated)
      return false;
    if (ReadAt.empty())
      ReadAt = Use.Summarised->At;
    return true;
  }

  /// The calls of \p Function in the unit, when every call is known: its
  /// address does not escape, it is not a virtual method (an override's
  /// caller may call it through the base) and not a lambda; and the calls
  /// in other units (as the summaries say) are none, or, when only what
  /// it returns is followed (\p OnlyResult), all of them in a known grad
  /// mode and none differentiating what it returns. Null when some call
  /// is not known, or none is made at all.
  std::optional<llvm::SmallVector<const CallExpr *, 4>>
  callSitesOf(const FunctionDecl *Function, unsigned Depth, bool OnlyResult,
              bool &Unseen) {
    Unseen = false;
    if (Depth >= 3)
      return std::nullopt;
    Unseen = true;
    if (const auto *Method = dyn_cast<CXXMethodDecl>(Function))
      if (Method->isVirtual() || Method->getParent()->isLambda())
        return std::nullopt;
    auto Sites = Callers.of(Function);
    if (!Sites)
      return std::nullopt;
    Unseen = false;
    llvm::SmallVector<const CallExpr *, 4> InUnit(Sites->begin(), Sites->end());
    const FunctionSummaries *Summaries =
        History ? History->options().Summaries.get() : nullptr;
    // Only asked when the answer may depend on them: a unit whose answer
    // cannot change is not checked again for the project's summaries.
    const UsedSummary *Used = nullptr;
    const CalledSummary *Called = nullptr;
    if (Summaries && (!InUnit.empty() || OnlyResult) &&
        Callers.recordsOnlyElsewhere(Function)) {
      Used = Summaries->used(Function);
      Called = Summaries->called(Function);
    }
    if (Used || Called) {
      // Calls in other units: what their summaries say they do with the
      // result, which each must drop (an address taken there leaves the
      // grad mode unknown, and the calls with it).
      if (!OnlyResult || !Used || Used->Differentiated || !Used->Dropped ||
          !Called || Called->GradMode == CalledSummary::Unknown)
        return std::nullopt;
      if (ElsewhereAt.empty())
        ElsewhereAt = Used->At;
    } else if (InUnit.empty()) {
      Unseen = true;
      return std::nullopt;
    }
    return InUnit;
  }

  /// callSitesOf, with callers that are not seen at all (none in view, and
  /// none the summaries describe; or not all known, the function being
  /// virtual, a lambda, or one whose address is taken) taken to be none
  /// when the project trains nowhere: what such callers get they neither
  /// differentiate nor, as far as anything in view shows, keep. \p NoneSeen
  /// says when that was assumed.
  std::optional<llvm::SmallVector<const CallExpr *, 4>>
  callSitesOrNone(const FunctionDecl *Function, unsigned Depth,
                  bool OnlyResult, bool &NoneSeen) {
    bool Unseen = false;
    auto Sites = callSitesOf(Function, Depth, OnlyResult, Unseen);
    // A function that no unit of the program refers to has no callers at
    // all: it runs nowhere, and nothing is assumed of callers it has not.
    NoneSeen = !Sites && Unseen && History &&
               History->projectTrainsNowhere() && mayRun(Function, History);
    if (NoneSeen) {
      AssumedUntrained = true;
      Sites.emplace();
    }
    return Sites;
  }

  ASTContext &Ctx;
  const CallSites &Callers;
  HistoryAnalysis *History;
};
} // namespace

std::map<const FieldDecl *, std::vector<const MemberExpr *>>
tensorMemberReads(ASTContext &Ctx) {
  class Reads : public StmtWalk {
  public:
    explicit Reads(const SourceManager &SM)
        : StmtWalk(Options{/*TemplateInstantiations=*/true,
                           /*LambdaBodies=*/true}),
          SM(SM) {}
    std::map<const FieldDecl *, std::vector<const MemberExpr *>> Found;

  private:
    bool enterDecl(Decl *D) override {
      return isa<TranslationUnitDecl>(D) || D->getLocation().isInvalid() ||
             !SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation()));
    }
    bool visit(Stmt *S) override {
      // Writes are not reads: `m = v`, `m.push_back(v)`, `m.clear()`.
      if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S);
          Op && Op->getOperator() == OO_Equal && Op->getNumArgs() == 2)
        Writes.insert(stripWrappers(Op->getArg(0)));
      else if (const auto *Assign = dyn_cast<BinaryOperator>(S);
               Assign && Assign->getOpcode() == BO_Assign)
        Writes.insert(stripWrappers(Assign->getLHS()));
      else if (const auto *Call = dyn_cast<CXXMemberCallExpr>(S)) {
        const CXXMethodDecl *MD = Call->getMethodDecl();
        if (MD && MD->getIdentifier() && Call->getImplicitObjectArgument() &&
            llvm::is_contained({"push_back", "emplace_back", "push_front",
                                "emplace_front", "pop_back", "pop_front",
                                "clear", "reserve", "resize"},
                               MD->getName()))
          Writes.insert(stripWrappers(Call->getImplicitObjectArgument()));
      }
      const auto *Member = dyn_cast<MemberExpr>(S);
      const auto *Field =
          Member ? dyn_cast<FieldDecl>(Member->getMemberDecl()) : nullptr;
      if (!Field || Member->isInstantiationDependent() ||
          Writes.contains(Member) ||
          SM.isInSystemHeader(SM.getExpansionLoc(Field->getLocation())))
        return true;
      QualType T = Field->getType().getNonReferenceType();
      if (holdsTensorsOrFields(T) || holdsTensorRecords(T))
        Found[Field->getCanonicalDecl()].push_back(Member);
      return true;
    }
    const SourceManager &SM;
    /// The objects written, seen before the member expressions in them
    /// (outermost first).
    llvm::SmallPtrSet<const Expr *, 16> Writes;
  } Walker(Ctx.getSourceManager());
  Walker.walkDecl(Ctx.getTranslationUnitDecl());
  return std::move(Walker.Found);
}

bool memberReadMayBeDifferentiated(llvm::ArrayRef<const MemberExpr *> Reads,
                                   ASTContext &Ctx, const CallSites &Callers,
                                   HistoryAnalysis *History,
                                   const MemberExpr **At) {
  Question Ask(Ctx, Callers, /*OpaqueCallsMay=*/true, History);
  for (const MemberExpr *Read : Reads)
    if (Ask.ask(Read, 0)) {
      if (At)
        *At = Read;
      return true;
    }
  return false;
}

MemberReadUse memberReadUse(const FieldDecl *Field, ASTContext &Ctx,
                            const CallSites &Callers,
                            HistoryAnalysis &History, bool OnlySummarised) {
  MemberReadUse Use;
  if (const FunctionSummaries *Summaries = History.options().Summaries.get())
    Use.Summarised = Summaries->memberRead(Field);
  if (OnlySummarised && !Use.Summarised)
    return Use;
  if (Use.Summarised && Use.Summarised->Differentiated) {
    Use.Differentiated = true;
    return Use;
  }
  HistoryAnalysis::MemberReadsOfUnit &Unit = History.memberReadsOfUnit();
  const FieldDecl *Key = Field->getCanonicalDecl();
  auto Known = Unit.MayBeDifferentiated.find(Key);
  if (Known == Unit.MayBeDifferentiated.end()) {
    if (!Unit.Reads)
      Unit.Reads = tensorMemberReads(Ctx);
    auto It = Unit.Reads->find(Key);
    bool May = It != Unit.Reads->end() &&
               memberReadMayBeDifferentiated(It->second, Ctx, Callers,
                                             &History);
    Known = Unit.MayBeDifferentiated.try_emplace(Key, May).first;
  }
  Use.Differentiated = Known->second;
  return Use;
}

bool parameterMayBeDifferentiated(const FunctionDecl *Def,
                                  const ParmVarDecl *Param, ASTContext &Ctx,
                                  const CallSites &Callers,
                                  HistoryAnalysis *History,
                                  bool OpaqueCallsMay) {
  if (!Def || !Def->hasBody())
    return OpaqueCallsMay;
  return Question(Ctx, Callers, OpaqueCallsMay, History)
      .parameter(Def, Param);
}

bool historyDiscarded(const Expr *E, ASTContext &Ctx, const CallSites &Callers,
                      DeclSet *HoldersOut, HistoryAnalysis *History,
                      bool *ThroughCallers, std::string *ElsewhereAt,
                      std::string *ReadAt, bool *AssumedUntrained) {
  Discarded Question(Ctx, Callers, History);
  bool Result = Question.at(E, HoldersOut, 0);
  if (AssumedUntrained)
    *AssumedUntrained = Result && Question.AssumedUntrained;
  if (ThroughCallers)
    *ThroughCallers = Result && Question.Followed;
  if (ElsewhereAt)
    *ElsewhereAt = Result ? Question.ElsewhereAt : "";
  if (ReadAt)
    *ReadAt = Result ? Question.ReadAt : "";
  return Result;
}

bool returnsHistoryOf(const Expr *E, const FunctionDecl *Function,
                      ASTContext &Ctx) {
  const Stmt *Body = Function ? Function->getBody() : nullptr;
  if (!Body)
    return false;
  TensorSources Sources(Body);
  return returnsValue(E, Sources.historyFrom(heldBy(E, Ctx), Ctx), Body,
                      Sources, Ctx, /*History=*/nullptr, /*HistoryOnly=*/true);
}

bool isReturned(const Expr *E, const FunctionDecl *Function, ASTContext &Ctx) {
  const Stmt *Body = Function ? Function->getBody() : nullptr;
  if (!Body)
    return false;
  TensorSources Sources(Body);
  return returnsValue(E, Sources.computedFrom(storedInto(E, Ctx)), Body,
                      Sources, Ctx, /*History=*/nullptr);
}

} // namespace torch_tidy::analysis
