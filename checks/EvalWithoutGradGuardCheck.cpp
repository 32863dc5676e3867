//===--- EvalWithoutGradGuardCheck.cpp - torch-eval-without-grad-guard ----===//

#include "checks/EvalWithoutGradGuardCheck.h"

#include "checks/CheckTable.h"
#include "checks/HistoryOptions.h"
#include "checks/UnnamedGradGuardCheck.h"
#include "checks/analysis/BackwardPasses.h"
#include "checks/analysis/CarriedState.h"
#include "checks/analysis/Differentiated.h"
#include "checks/analysis/ExprUtils.h"
#include "checks/analysis/GradGuard.h"
#include "checks/analysis/LoopScope.h"
#include "checks/analysis/ModeRestore.h"
#include "checks/analysis/ModuleMode.h"
#include "checks/analysis/ObjectPaths.h"
#include "checks/analysis/SummaryData.h"
#include "checks/analysis/TensorSources.h"
#include "checks/analysis/TorchTypes.h"
#include "checks/analysis/TrainingSteps.h"
#include "checks/analysis/Walk.h"
#include "fixits/Edits.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Basic/SourceManager.h"

#include <optional>

using namespace clang;
using namespace clang::ast_matchers;

namespace torch_tidy {

namespace {
/// A guard of the function's body, before the forward, that protects
/// nothing until torch-unnamed-grad-guard's fix names it.
struct UnnamedGuard {
  SourceLocation At; ///< invalid when there is none
  /// How it is written: a temporary (`torch::NoGradGuard();`), a statement
  /// that declares nothing (`torch::NoGradGuard;`), or one that declares a
  /// function (`torch::NoGradGuard guard();`).
  enum Form { Temporary, DeclaresNothing, DeclaresFunction } Written = Temporary;
};
} // namespace

static UnnamedGuard temporaryGuardBefore(const CompoundStmt *Body,
                                         const Expr *Forward, ASTContext &Ctx);

namespace {
AST_MATCHER_P(Expr, isForward, const analysis::NameGuesses *, Names) {
  return analysis::isForwardCall(&Node, *Names);
}

/// Everything that marks training: a backward pass, an optimizer step,
/// switching a module back to training.
bool trains(const Stmt *S, const ASTContext &Ctx) {
  class Finder : public analysis::StmtWalk {
  public:
    explicit Finder(const ASTContext &Ctx) : Ctx(Ctx) {}
    bool Found = false;
    bool visit(Stmt *S) override {
      const auto *Call = dyn_cast<CallExpr>(S);
      if (!Call)
        return true;
      Found |= analysis::modeSetBy(Call, Ctx) == analysis::ModuleMode::Train;
      return !Found;
    }

  private:
    const ASTContext &Ctx;
  } Modes(Ctx);
  Modes.walk(S);
  return Modes.Found || analysis::trainsIn(S);
}

/// Whether a statement of \p Block writes a variable or member declared
/// outside it: an assignment, or a call of a non-const method on it
/// (`total += t`, `outs.push_back(t)`, `acc.add_(t)`).
bool writesOutside(const CompoundStmt *Block, const ASTContext &Ctx,
                   const analysis::NameGuesses &Names) {
  const SourceManager &SM = Ctx.getSourceManager();
  auto Outside = [&](const Expr *Target) {
    const Expr *Base = Target;
    while (true) {
      Base = Base->IgnoreParenImpCasts();
      if (const auto *Member = dyn_cast<MemberExpr>(Base)) {
        if (isa<CXXThisExpr>(Member->getBase()->IgnoreParenImpCasts()))
          return true;
        Base = Member->getBase();
        continue;
      }
      if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Base);
          Op && Op->getNumArgs() > 0 &&
          (Op->getOperator() == OO_Subscript || Op->getOperator() == OO_Arrow ||
           Op->getOperator() == OO_Star)) {
        Base = Op->getArg(0);
        continue;
      }
      break;
    }
    const auto *Ref = dyn_cast<DeclRefExpr>(Base);
    if (!Ref)
      return true; // not known: assume it is
    SourceLocation Declared = Ref->getDecl()->getLocation();
    return !SM.isPointWithin(Declared, Block->getBeginLoc(), Block->getEndLoc());
  };
  class Writes : public analysis::StmtWalk {
  public:
    Writes(decltype(Outside) &IsOutside, const analysis::NameGuesses &Names)
        : IsOutside(IsOutside), Names(Names) {}
    bool Found = false;
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
      if (Op->isAssignmentOp())
        Found |= IsOutside(Op->getLHS());
      return !Found;
    }
    bool visitOperatorCall(CXXOperatorCallExpr *Op) {
      if (Op->isAssignmentOp() && Op->getNumArgs() == 2)
        Found |= IsOutside(Op->getArg(0));
      return !Found;
    }
    bool visitMemberCall(CXXMemberCallExpr *Call) {
      // Tensor's in-place methods are const (`add_`, `copy_`); a module's
      // forward writes nothing of the caller's.
      const CXXMethodDecl *MD = Call->getMethodDecl();
      if (MD && !MD->isStatic() && Call->getImplicitObjectArgument() &&
          !analysis::isForwardCall(Call, Names) &&
          (!MD->isConst() ||
           (MD->getIdentifier() && MD->getName().ends_with("_"))))
        Found |= IsOutside(Call->getImplicitObjectArgument());
      return !Found;
    }

    decltype(Outside) &IsOutside;
    const analysis::NameGuesses &Names;
  } Finder(Outside, Names);
  Finder.walk(Block);
  return Finder.Found;
}

/// Whether every other forward pass in \p Scope is discarded as well: a
/// scope that keeps, returns or hands on another forward's result does
/// autograd work (a Jacobian built with create_graph), and a guard there
/// would break it.
bool othersDiscarded(const Expr *Forward, const Stmt *Scope,
                     const analysis::CallSites &Callers,
                     analysis::HistoryAnalysis &History, ASTContext &Ctx) {
  class Forwards : public analysis::StmtWalk {
  public:
    explicit Forwards(const analysis::NameGuesses &Names) : Names(Names) {}
    const analysis::NameGuesses &Names;
    llvm::SmallVector<const Expr *, 4> All;
    bool visit(Stmt *S) override {
      const auto *E = dyn_cast<Expr>(S);
      if (E && analysis::isForwardCall(E, Names) && !isa<ParenExpr>(E))
        All.push_back(E);
      return true;
    }
  } Found(History.options().names());
  Found.walk(Scope);
  return llvm::all_of(Found.All, [&](const Expr *Other) {
    return analysis::stripWrappers(Other) == analysis::stripWrappers(Forward) ||
           analysis::historyDiscarded(Other, Ctx, Callers, nullptr, &History);
  });
}

/// Whether H finds that \p Call returns nothing that may hold a graph, and
/// knows it.
bool returnsNothingWithHistory(const CXXMemberCallExpr *Call,
                               analysis::HistoryAnalysis &History) {
  analysis::Carries Result = History.history(Call);
  return !Result.mayHoldGraph() && !Result.mayBeUnknown();
}

/// Whether the project's function summaries say that \p Call, a method of
/// the user's model whose body is in another unit (taken for a forward pass
/// while nothing is known of it), returns no history from what this call
/// hands it: its body runs the model under a guard of its own (a
/// `predict()` that holds a NoGradGuard), returns only numbers, or returns
/// history only from what it is handed (a sampler that appends argmax
/// tokens to the ids it is given) and is handed none here. Its forward
/// passes are then judged in its own unit, and nothing it recorded
/// outlives the call.
bool returnsNoHistoryElsewhere(const Expr *Call,
                               analysis::HistoryAnalysis &History) {
  const analysis::FunctionSummaries *Summaries =
      History.options().Summaries.get();
  const auto *Member =
      dyn_cast_or_null<CXXMemberCallExpr>(analysis::stripWrappers(Call));
  const FunctionDecl *Method = Member ? Member->getMethodDecl() : nullptr;
  if (!Summaries || !Method)
    return false;
  const analysis::FunctionSummary *Summary = Summaries->find(Method);
  if (!Summary || Summary->empty())
    return false;
  // H asks the summary with this call's arguments.
  return returnsNothingWithHistory(Member, History);
}

/// Whether \p Call, the forward pass of a module of the user's, records
/// nothing, as the bodies it runs say (in the unit, or as the project's
/// summaries say; each overrider of a virtual forward in view among them):
/// a sampler or an analytic density with no parameter, run on nothing
/// with history. H answers from those bodies; its answer for a module it
/// knows nothing of is a graph.
bool userForwardRecordsNothing(const Expr *Call,
                               analysis::HistoryAnalysis &History) {
  const auto *Member =
      dyn_cast_or_null<CXXMemberCallExpr>(analysis::stripWrappers(Call));
  const CXXMethodDecl *Method = Member ? Member->getMethodDecl() : nullptr;
  if (!Method || analysis::inLibraryNamespace(Method->getParent()))
    return false;
  return returnsNothingWithHistory(Member, History);
}

/// Whether no call of \p Function is in view, so that only a guess from its
/// name can say how it runs.
bool callersUnseen(const FunctionDecl *Function,
                   const analysis::CallSites &Callers) {
  auto Sites = Callers.of(Function);
  return !Sites || Sites->empty();
}

/// A test case's body generated by a test framework: gtest's TestBody, or
/// (a guess from names, when no call of it is in view) a function named by
/// a macro, as Catch2's and doctest's are.
bool isTestBody(const FunctionDecl *Function, const analysis::NameGuesses &Names,
                const analysis::CallSites &Callers) {
  if (!Function->getIdentifier())
    return false;
  if (Names.macroNamesTest(Function) && callersUnseen(Function, Callers))
    return true;
  const auto *MD = dyn_cast<CXXMethodDecl>(Function);
  return MD && Function->getName() == "TestBody" &&
         analysis::derivesFrom(MD->getParent(), "testing::Test");
}

/// A hand-written smoke test (`void testNet()`, `void test_shapes()`,
/// `void TrainingTest()`: the first or last word of its name is "test"):
/// run once, like a test framework's case, and nothing comes out of it (one
/// that returns a score, `test_accuracy()`, is evaluation).
/// The name is a guess, asked only when no call of the function is in view:
/// calls in view say how often it runs.
bool isTestFunction(const FunctionDecl *Function,
                    const analysis::NameGuesses &Names,
                    const analysis::CallSites &Callers) {
  return isTestBody(Function, Names, Callers) ||
         (Names.namesTestFunction(Function) && callersUnseen(Function, Callers));
}
/// Whether \p Forward, in \p Function, may run again and again: in a loop,
/// in a function called in a loop, or in one whose callers are not all in
/// the unit (an agent's `act()`, called by a game loop elsewhere). A shape
/// probe run once from a constructor (`GetConvOutput`) is not, nor a test
/// case, which its framework runs once, or a helper only tests call.
/// \p Unseen receives, when the answer rests only on callers out of view,
/// the function whose callers those are.
bool runsRepeatedly(const Stmt *At, const FunctionDecl *Function,
                    const analysis::CallSites &Callers,
                    const analysis::NameGuesses &Names, ASTContext &Ctx,
                    const FunctionDecl *&Unseen, unsigned Depth = 0) {
  if (analysis::innermostLoop(At, Ctx))
    return true;
  if (!Function || Function->isMain() || isa<CXXConstructorDecl>(Function) ||
      isTestFunction(Function, Names, Callers))
    return false;
  auto Sites = Callers.of(Function);
  if (!Sites || Sites->empty() || Depth >= 3) {
    Unseen = Function;
    return true;
  }
  // Called in a loop, or from a function that itself runs again and again
  // (an agent's Train() that calls UpdateMemory() once per step); a caller
  // in view that repeats it says more than one out of view.
  const FunctionDecl *FirstUnseen = nullptr;
  bool Repeats = false;
  for (const CallExpr *Site : *Sites) {
    const FunctionDecl *SiteUnseen = nullptr;
    if (!runsRepeatedly(Site, analysis::enclosingFunction(Site, Ctx), Callers,
                        Names, Ctx, SiteUnseen, Depth + 1))
      continue;
    Repeats = true;
    if (!SiteUnseen) {
      Unseen = nullptr;
      return true;
    }
    if (!FirstUnseen)
      FirstUnseen = SiteUnseen;
  }
  Unseen = FirstUnseen;
  return Repeats;
}

static bool madeUpByHelper(
    const CallExpr *Call, const FunctionDecl *Callee, const Stmt *Body,
    unsigned Depth, llvm::SmallPtrSetImpl<const VarDecl *> &Seen,
    llvm::function_ref<bool(const ParmVarDecl *)> ParamMadeUp);

/// Whether \p Callee may write what its parameter \p Index is bound to (a
/// non-const reference or pointer): its body is out of view, or it assigns
/// to the parameter or through it (`x = ...`, `x[i] = ...`), calls an
/// in-place method on it (`x.copy_(...)`, `x.slice(0, 0, 1).fill_(0)`) or
/// a method that is not const on an object that holds no tensor handle
/// (`v.push_back(t)`), takes its address, or hands it on to a function
/// that may write it in turn. A forward that takes its input by non-const
/// reference and only reads it (`torch::Tensor forward(torch::Tensor &x)`)
/// writes nothing.
static bool mayWriteParameter(const FunctionDecl *Callee, unsigned Index,
                              unsigned Depth = 0) {
  // LibTorch's and the standard library's functions write what they are
  // handed only in place, by their names (`torch::nn::init::zeros_(w)`);
  // a forward that passes its argument on (`Sequential::forward(x)`,
  // deduced as a non-const reference) does not.
  auto InStd = [](const FunctionDecl *FD) {
    for (const DeclContext *DC = FD->getEnclosingNamespaceContext();
         DC && !DC->isTranslationUnit(); DC = DC->getParent())
      if (DC->isStdNamespace())
        return true;
    return false;
  };
  if (Callee && analysis::isLibraryFunction(Callee) &&
      (analysis::isTorchFunction(Callee) || InStd(Callee)))
    return Callee->getIdentifier() && Callee->getName().ends_with("_");
  const FunctionDecl *Def = Callee ? Callee->getDefinition() : nullptr;
  if (!Def || !Def->hasBody() || Index >= Def->getNumParams() || Depth > 3)
    return true;
  const ParmVarDecl *Param = Def->getParamDecl(Index);
  class Writes : public analysis::StmtWalk {
  public:
    Writes(const ParmVarDecl *Param, unsigned Depth)
        : Param(Param), Depth(Depth) {}
    const ParmVarDecl *Param;
    unsigned Depth;
    bool Found = false;
    bool visit(Stmt *S) override {
      if (const auto *Op = dyn_cast<BinaryOperator>(S))
        Found |= Op->isAssignmentOp() && analysis::mentions(Op->getLHS(), Param);
      else if (const auto *Op = dyn_cast<UnaryOperator>(S))
        Found |= (Op->getOpcode() == UO_AddrOf ||
                  Op->isIncrementDecrementOp()) &&
                 analysis::mentions(Op->getSubExpr(), Param);
      else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S))
        Found |= Op->isAssignmentOp() && Op->getNumArgs() > 0 &&
                 analysis::mentions(Op->getArg(0), Param);
      if (const auto *Call = dyn_cast<CXXMemberCallExpr>(S)) {
        const CXXMethodDecl *Method = Call->getMethodDecl();
        const Expr *Object = Call->getImplicitObjectArgument();
        if (Method && Object && analysis::mentions(Object, Param))
          Found |= (Method->getIdentifier() &&
                    Method->getName().ends_with("_")) ||
                   (!Method->isConst() &&
                    !analysis::isTensorType(Object->getType()));
      }
      if (const auto *Call = dyn_cast<CallExpr>(S)) {
        auto Names = [&](const Expr *Arg) {
          const auto *Ref =
              dyn_cast_or_null<DeclRefExpr>(Arg ? Arg->IgnoreParenImpCasts()
                                                : nullptr);
          return Ref && Ref->getDecl() == Param;
        };
        const FunctionDecl *Next = Call->getDirectCallee();
        if (!Next)
          Found |= llvm::any_of(Call->arguments(), Names);
        for (unsigned I = 0, N = Next ? Next->getNumParams() : 0;
             I < N && !Found; ++I) {
          QualType T = Next->getParamDecl(I)->getType();
          if ((analysis::isMutableReference(T) ||
               analysis::isMutablePointer(T)) &&
              Names(analysis::argumentFor(Call, I)))
            Found = mayWriteParameter(Next, I, Depth + 1);
        }
      }
      return !Found;
    }
  } W(Param, Depth);
  W.walk(Def->getBody());
  return W.Found;
}

/// Whether \p E, a forward's input, is made up in its function: computed,
/// through its locals, only from tensors the function creates itself
/// (`torch::zeros({1, 3, 224, 224})`, `torch::randn(...)`, literals), as a
/// shape probe's or a smoke test's input is, or returned by a helper of the
/// program whose body, in view, makes it up so (madeUpByHelper). A
/// parameter, a member, a global, or what a function of another library
/// or a function out of view returns (`cv::imread`, a dataset's
/// constructor) is data from outside. A parameter is data from outside
/// unless \p ParamMadeUp says that every call passes made-up input for it.
static bool madeUpInput(
    const Expr *E, const Stmt *Body, unsigned Depth,
    llvm::SmallPtrSetImpl<const VarDecl *> &Seen,
    llvm::function_ref<bool(const ParmVarDecl *)> ParamMadeUp =
        [](const ParmVarDecl *) { return false; }) {
  if (!E || Depth > 16)
    return true;
  E = E->IgnoreParenImpCasts();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    // `auto [x, y] = load_pair(path);`: what the whole was initialised with.
    const ValueDecl *D = Ref->getDecl();
    if (const auto *Binding = dyn_cast<BindingDecl>(D))
      if (const ValueDecl *Whole = Binding->getDecomposedDecl())
        D = Whole;
    const auto *Var = dyn_cast<VarDecl>(D);
    if (!Var)
      return true; // a function, an enumerator
    if (const auto *Param = dyn_cast<ParmVarDecl>(Var))
      return ParamMadeUp(Param);
    // A global is data from outside, unless it is a constant that holds
    // no tensors (`torch::kCUDA`, `torch::kFloat32`, a configured size).
    if (!Var->hasLocalStorage())
      return Var->getType().isConstQualified() &&
             !analysis::holdsTensorsOrFields(Var->getType());
    if (!Seen.insert(Var).second)
      return true;
    // Its initialiser, what is assigned to it, and what is added to it
    // (`inputs.push_back(x)`, `inputs.emplace_back(x)`). Handed to a
    // function that may fill it (`load_img(image, input)` taking a
    // non-const reference or its address), it holds what that function
    // puts there: data from outside.
    bool MadeUp =
        madeUpInput(Var->getInit(), Body, Depth + 1, Seen, ParamMadeUp);
    class Writes : public analysis::StmtWalk {
    public:
      Writes(const VarDecl *Var, const DeclRefExpr *Asked)
          : Var(Var), Asked(Asked) {}
      const VarDecl *Var;
      /// The reference asked about: the call it is an argument of reads
      /// the variable there (a forward `predict(input)` that moves its
      /// input to a device by reference), and fills nothing before.
      const DeclRefExpr *Asked;
      llvm::SmallVector<const Expr *, 4> Values;
      bool FilledByCall = false;
      bool visit(Stmt *S) override {
        // Whether the callee writes through what it takes is asked of it
        // (mayWriteParameter): the standard library's forwarding calls
        // (`emplace_back(x)`) and a forward that only reads its argument
        // take a non-const reference without writing through it.
        if (const auto *Call = dyn_cast<CallExpr>(S);
            Call && !isa<CXXOperatorCallExpr>(Call))
          if (const FunctionDecl *Callee = Call->getDirectCallee())
            for (unsigned I = 0, N = std::min<unsigned>(Call->getNumArgs(),
                                                         Callee->getNumParams());
                 I < N; ++I)
              if (Call->getArg(I)->IgnoreParenImpCasts() != Asked &&
                  fills(Callee->getParamDecl(I)->getType(), Call->getArg(I)) &&
                  mayWriteParameter(Callee, I))
                FilledByCall = true;
        if (const auto *Op = dyn_cast<BinaryOperator>(S);
            Op && Op->isAssignmentOp() && names(Op->getLHS()))
          Values.push_back(Op->getRHS());
        if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S);
            Op && Op->isAssignmentOp() && Op->getNumArgs() == 2 &&
            names(Op->getArg(0)))
          Values.push_back(Op->getArg(1));
        if (const auto *Call = dyn_cast<CXXMemberCallExpr>(S);
            Call && names(Call->getImplicitObjectArgument()))
          for (const Expr *Arg : Call->arguments())
            Values.push_back(Arg);
        return true;
      }

    private:
      bool names(const Expr *E) const {
        const auto *Ref = dyn_cast_or_null<DeclRefExpr>(
            E ? E->IgnoreParenImpCasts() : nullptr);
        return Ref && Ref->getDecl() == Var;
      }
      /// Whether \p Arg hands the variable to a parameter of type \p Param
      /// that can write it: a non-const reference to it, or its address.
      bool fills(QualType Param, const Expr *Arg) const {
        if (Param->isLValueReferenceType())
          return analysis::isMutableReference(Param) && names(Arg);
        const auto *Address = dyn_cast<UnaryOperator>(Arg->IgnoreParenImpCasts());
        return analysis::isMutablePointer(Param) && Address &&
               Address->getOpcode() == UO_AddrOf && names(Address->getSubExpr());
      }
    } W(Var, Ref);
    W.walk(const_cast<Stmt *>(Body));
    if (W.FilledByCall)
      return false;
    for (const Expr *Value : W.Values)
      MadeUp = MadeUp && madeUpInput(Value, Body, Depth + 1, Seen, ParamMadeUp);
    return MadeUp;
  }
  if (const auto *Member = dyn_cast<MemberExpr>(E)) {
    const Expr *Base = Member->getBase()->IgnoreParenImpCasts();
    if (isa<CXXThisExpr>(Base))
      return false;
    return madeUpInput(Base, Body, Depth + 1, Seen, ParamMadeUp);
  }
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee)
      return false;
    if (!analysis::isLibraryFunction(Callee))
      return madeUpByHelper(Call, Callee, Body, Depth, Seen, ParamMadeUp);
    // A tensor made from sizes and numbers; `torch::tensor(values)` and
    // `torch::from_blob(data, ...)` are made from what they are given.
    if (analysis::isTorchFunction(Callee) && Callee->getIdentifier() &&
        (analysis::makesTensorFromSizes(Callee->getName()) ||
         llvm::is_contained({"randperm", "zeros_like", "ones_like", "rand_like",
                             "randn_like", "full_like", "empty_like"},
                            Callee->getName())))
      return true;
    // What a module computes is made up when its input is: the module
    // (`layer->forward(x)`'s object, `model(x)`'s callee) is no input.
    auto IsModule = [](const Expr *E) {
      return analysis::isModuleClass(
          analysis::recordOf(E->getType(), /*ThroughPointer=*/true));
    };
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
      if (!IsModule(MC->getImplicitObjectArgument()) &&
          !madeUpInput(MC->getImplicitObjectArgument(), Body, Depth + 1, Seen,
                       ParamMadeUp))
        return false;
    for (const Expr *Arg : Call->arguments())
      if (!IsModule(Arg) && !madeUpInput(Arg, Body, Depth + 1, Seen, ParamMadeUp))
        return false;
    return true;
  }
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
    const CXXConstructorDecl *Ctor = Construct->getConstructor();
    if (Ctor && !analysis::isLibraryFunction(Ctor))
      return false;
  }
  for (const Stmt *Child : E->children())
    if (const auto *ChildExpr = dyn_cast_or_null<Expr>(Child))
      if (!madeUpInput(ChildExpr, Body, Depth + 1, Seen, ParamMadeUp))
        return false;
  return true;
}

/// Whether \p Call, a call of \p Callee (a function of the program, not of
/// a library), returns made-up input: its body is in view, it runs no
/// override the unit cannot see, and each value it returns is made up in
/// that body (madeUpInput there), its parameters by what \p Call, in
/// \p Body, passes for them (`make_inputs()` returning
/// `torch::tensor({{0.43, 0.15}, ...})`, `probe(4)` returning
/// `torch::randn({n, 3})`). Followed a few helpers deep (each counts four
/// steps of \p Depth).
static bool madeUpByHelper(
    const CallExpr *Call, const FunctionDecl *Callee, const Stmt *Body,
    unsigned Depth, llvm::SmallPtrSetImpl<const VarDecl *> &Seen,
    llvm::function_ref<bool(const ParmVarDecl *)> ParamMadeUp) {
  const FunctionDecl *Def = Callee->getDefinition();
  const auto *Method = dyn_cast<CXXMethodDecl>(Callee);
  if (!Def || !Def->hasBody() || Depth > 12 || analysis::mayBeOverridden(Method))
    return false;
  auto Returned = analysis::returnedValues(Def->getBody());
  if (Returned.empty())
    return false;
  auto Passed = [&](const ParmVarDecl *Param) {
    if (Param->getDeclContext() != Def)
      return false;
    const Expr *Arg =
        analysis::argumentFor(Call, Param->getFunctionScopeIndex(), true);
    return Arg && madeUpInput(Arg, Body, Depth + 4, Seen, ParamMadeUp);
  };
  return llvm::all_of(Returned, [&](const Expr *Value) {
    return madeUpInput(Value, Def->getBody(), Depth + 4, Seen, Passed);
  });
}

/// Whether \p Function runs once per run of the program, from its `main`:
/// it is `main`, or every call of it in view sits outside any loop in a
/// function that itself runs once from `main` (a `detect(model, image)`
/// helper that `main` calls once), no call of it is in another unit, and
/// neither it nor a caller on the way trains anything (itself or through
/// what it calls). A chain that ends in a test case's body, or in a
/// function with no caller in view, is not one.
static bool runsOnceFromMain(const FunctionDecl *Function,
                             const analysis::CallSites &Callers,
                             const analysis::NameGuesses &Names,
                             ASTContext &Ctx, unsigned Depth = 0) {
  const Stmt *Body = Function ? Function->getBody() : nullptr;
  if (!Body || isTestFunction(Function, Names, Callers) ||
      analysis::updatesParametersThroughCalls(Body, Ctx))
    return false;
  if (Function->isMain())
    return true;
  auto Sites = Callers.of(Function);
  if (Depth >= 3 || !Sites || Sites->empty() ||
      Callers.calledElsewhere(Function))
    return false;
  return llvm::all_of(*Sites, [&](const CallExpr *Site) {
    return !analysis::innermostLoop(Site, Ctx) &&
           runsOnceFromMain(analysis::enclosingFunction(Site, Ctx), Callers,
                            Names, Ctx, Depth + 1);
  });
}

/// Whether every call of \p Param's function in view passes made-up input
/// for it (madeUpInput, in the caller; a caller's own parameter asked of its
/// callers in turn).
static bool madeUpByCallers(const ParmVarDecl *Param,
                            const analysis::CallSites &Callers, ASTContext &Ctx,
                            unsigned Depth = 0) {
  const auto *Function =
      dyn_cast_or_null<FunctionDecl>(Param->getDeclContext());
  auto Sites = Function ? Callers.of(Function) : std::nullopt;
  if (!Sites || Sites->empty() || Depth >= 3)
    return false;
  return llvm::all_of(*Sites, [&](const CallExpr *Site) {
    const FunctionDecl *Caller = analysis::enclosingFunction(Site, Ctx);
    const Expr *Arg =
        analysis::argumentFor(Site, Param->getFunctionScopeIndex(), true);
    llvm::SmallPtrSet<const VarDecl *, 8> Seen;
    return Caller && Caller->getBody() && Arg &&
           madeUpInput(Arg, Caller->getBody(), 0, Seen,
                       [&](const ParmVarDecl *Outer) {
                         return madeUpByCallers(Outer, Callers, Ctx, Depth + 1);
                       });
  });
}

/// Whether an input of \p ForwardExpr, in \p Function, is data from
/// outside (not made up there or by the callers that pass it: madeUpInput).
static bool runsOnData(const Expr *ForwardExpr, const FunctionDecl *Function,
                       const analysis::CallSites &Callers, ASTContext &Ctx) {
  const auto *Forward = dyn_cast<CallExpr>(ForwardExpr);
  const Stmt *Body = Function->getBody();
  if (!Forward || !Body)
    return false;
  llvm::SmallPtrSet<const VarDecl *, 8> Seen;
  for (const Expr *Arg : Forward->arguments()) {
    if (analysis::isModuleClass(analysis::recordOf(Arg->getType(),
                                                   /*ThroughPointer=*/true)))
      continue; // the module of `model(x)`
    if (!madeUpInput(Arg, Body, 0, Seen, [&](const ParmVarDecl *Param) {
          return madeUpByCallers(Param, Callers, Ctx);
        }))
      return true;
  }
  return false;
}

/// Whether \p Forward, run once in \p Function (not in a loop, nor in a
/// function that runs again and again), is inference over data: the
/// function runs once from the program's `main` (runsOnceFromMain: `main`
/// itself, or a helper it calls once), and the forward's input is not made
/// up there or by the callers that pass it. A prediction program's one
/// forward over the image it was given keeps its graph and activations as
/// long as the output lives; a shape probe on `torch::zeros(...)` or a
/// smoke test is left alone.
static bool runsOnceOnData(const Expr *ForwardExpr,
                           const FunctionDecl *Function,
                           const analysis::CallSites &Callers,
                           const analysis::NameGuesses &Names,
                           ASTContext &Ctx) {
  return runsOnceFromMain(Function, Callers, Names, Ctx) &&
         runsOnData(ForwardExpr, Function, Callers, Ctx);
}

/// A local among \p Holders whose block, after its declaration, runs a
/// loop that trains, or else a statement that runs the model again and
/// again (a benchmark loop, or a call of a function of the unit that runs
/// one): the graph it holds stays alive through all of that. Returns the
/// statement, the variable in \p Holder, and in \p Training which it is.
const Stmt *heldThrough(const analysis::DeclSet &Holders, const VarDecl *&Holder,
                        bool &Training, ASTContext &Ctx,
                        const analysis::NameGuesses &Names) {
  for (bool Trains : {true, false})
    for (const ValueDecl *D : Holders) {
      const auto *Var = dyn_cast<VarDecl>(D);
      if (!Var || !Var->isLocalVarDecl() || Var->isStaticLocal())
        continue;
      const auto *Decl = analysis::nearestAncestor<DeclStmt>(*Var, Ctx, 4);
      const auto *Block =
          Decl ? analysis::nearestAncestor<CompoundStmt>(*Decl, Ctx, 2) : nullptr;
      if (!Block)
        continue;
      const auto *It = llvm::find(Block->body(), Decl);
      if (It == Block->body_end())
        continue;
      for (++It; It != Block->body_end(); ++It)
        if (Trains ? isa<ForStmt, CXXForRangeStmt, WhileStmt, DoStmt>(*It) &&
                         analysis::updatesParametersThroughCalls(*It, Ctx)
                   : analysis::runsModelRepeatedlyThroughCalls(*It, Ctx, Names)) {
          Holder = Var;
          Training = Trains;
          return *It;
        }
    }
  return nullptr;
}

/// Whether the module that \p Forward runs has its parameters frozen there
/// (analysis::parametersFrozenAt) and no input it is given requires
/// gradients.
bool parametersFrozen(const Expr *Forward, ASTContext &Ctx,
                      analysis::HistoryAnalysis &History) {
  const Expr *Object = analysis::forwardObject(Forward);
  const auto *Call = dyn_cast<CallExpr>(analysis::stripWrappers(Forward));
  if (!Object || !Call ||
      !analysis::parametersFrozenAt(Forward, analysis::objectPath(Object), Ctx))
    return false;
  unsigned First = isa<CXXOperatorCallExpr>(Call) ? 1 : 0;
  for (unsigned I = First; I < Call->getNumArgs(); ++I)
    if (History.requiresGrad(Call->getArg(I)))
      return false;
  return true;
}

/// Whether \p Forward, its body in view, hands part of its result back
/// through an argument it writes, which may then be differentiated (`model.forward(x, y,
/// loss)` filling `loss`, and `loss.backward()` after it): the forward
/// records the graph that training needs, whatever becomes of its value.
static bool fillsDifferentiatedArgument(const Expr *Forward, ASTContext &Ctx,
                                        const analysis::CallSites &Callers,
                                        analysis::HistoryAnalysis &History) {
  const auto *Call = dyn_cast<CallExpr>(analysis::stripWrappers(Forward));
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  if (!Callee)
    return false;
  unsigned Shift =
      isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(Callee) ? 1 : 0;
  for (unsigned I = Shift; I < Call->getNumArgs(); ++I) {
    unsigned Index = I - Shift;
    if (Index >= Callee->getNumParams())
      break;
    QualType T = Callee->getParamDecl(Index)->getType();
    bool Writable =
        analysis::isMutableReference(T) || analysis::isMutablePointer(T);
    QualType Held = T->isPointerType() ? T->getPointeeType()
                                       : T.getNonReferenceType();
    // Only a body in view is evidence that it writes the argument: one out
    // of view may as well only read an input it takes by reference.
    const FunctionDecl *Def = Callee->getDefinition();
    if (!Writable || !analysis::holdsTensorsOrFields(Held) || !Def ||
        !Def->hasBody() || !mayWriteParameter(Def, Index))
      continue;
    // A local it fills: what the function does with it, at any of its
    // other uses. Anything else (a member, an element) is not followed.
    const Expr *Arg = Call->getArg(I)->IgnoreParenImpCasts();
    if (const auto *Address = dyn_cast<UnaryOperator>(Arg);
        Address && Address->getOpcode() == UO_AddrOf)
      Arg = Address->getSubExpr()->IgnoreParenImpCasts();
    const auto *Ref = dyn_cast<DeclRefExpr>(Arg);
    const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    const FunctionDecl *Function = analysis::enclosingFunction(Call, Ctx);
    if (!Var || !Var->hasLocalStorage() || !Function || !Function->getBody())
      return true;
    class Uses : public analysis::StmtWalk {
    public:
      Uses(const VarDecl *Var, const Expr *Arg) : Var(Var), Arg(Arg) {}
      llvm::SmallVector<const DeclRefExpr *, 8> Found;
      bool visit(Stmt *S) override {
        if (const auto *Use = dyn_cast<DeclRefExpr>(S);
            Use && Use != Arg && Use->getDecl() == Var)
          Found.push_back(Use);
        return true;
      }

    private:
      const VarDecl *Var;
      const Expr *Arg;
    } Finder(Var, Ref);
    Finder.walk(Function->getBody());
    for (const DeclRefExpr *Use : Finder.Found)
      if (analysis::mayBeDifferentiated(Use, Ctx, Callers,
                                        /*OpaqueCallsMay=*/false, &History))
        return true;
  }
  return false;
}

/// The statement of the innermost block that contains \p E.
const Stmt *statementOf(const Expr *E, ASTContext &Ctx) {
  DynTypedNode Node = DynTypedNode::create(*E);
  for (unsigned Depth = 0; Depth < 64; ++Depth) {
    auto Parents = Ctx.getParents(Node);
    if (Parents.empty())
      return nullptr;
    if (Parents[0].get<CompoundStmt>())
      return Node.get<Stmt>();
    Node = Parents[0];
  }
  return nullptr;
}

/// Whether nothing reads what \p Forward computes: its statement drops the
/// value (`model->forward(x);`), or stores it in a local variable of
/// \p Body that is only ever assigned to afterwards (`output =
/// model->forward(image);` whose loss line is commented out). Such a
/// forward evaluates nothing.
static bool resultReadNowhere(const Expr *Forward, const Stmt *Statement,
                              const Stmt *Body) {
  const VarDecl *Var = nullptr;
  Forward = analysis::stripWrappers(Forward);
  if (const auto *E = dyn_cast_or_null<Expr>(Statement)) {
    E = analysis::stripWrappers(E);
    if (E == Forward)
      return true;
    const Expr *Target = nullptr, *Value = nullptr;
    if (const auto *Op = dyn_cast<BinaryOperator>(E);
        Op && Op->getOpcode() == BO_Assign) {
      Target = Op->getLHS();
      Value = Op->getRHS();
    } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
               Op && Op->getOperator() == OO_Equal && Op->getNumArgs() == 2) {
      Target = Op->getArg(0);
      Value = Op->getArg(1);
    }
    if (!Value || analysis::stripWrappers(Value) != Forward)
      return false;
    if (const auto *Ref =
            dyn_cast<DeclRefExpr>(analysis::stripWrappers(Target)))
      Var = dyn_cast<VarDecl>(Ref->getDecl());
  } else if (const auto *DS = dyn_cast_or_null<DeclStmt>(Statement);
             DS && DS->isSingleDecl()) {
    Var = dyn_cast<VarDecl>(DS->getSingleDecl());
    if (!Var || !Var->getInit() ||
        analysis::stripWrappers(Var->getInit()) != Forward)
      return false;
  }
  if (!Var || !Var->hasLocalStorage() || isa<ParmVarDecl>(Var) ||
      Var->getType()->isReferenceType())
    return false;
  // Every mention of the variable is the target of an assignment.
  class Mentions : public analysis::StmtWalk {
  public:
    explicit Mentions(const VarDecl *Var) : Var(Var) {}
    bool Read = false;
    bool visit(Stmt *S) override {
      const Expr *Target = nullptr;
      if (const auto *Op = dyn_cast<BinaryOperator>(S);
          Op && Op->getOpcode() == BO_Assign)
        Target = Op->getLHS();
      else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S);
               Op && Op->getOperator() == OO_Equal && Op->getNumArgs() == 2)
        Target = Op->getArg(0);
      if (Target)
        if (const auto *Ref =
                dyn_cast<DeclRefExpr>(analysis::stripWrappers(Target)))
          Assigned.insert(Ref);
      if (const auto *Ref = dyn_cast<DeclRefExpr>(S);
          Ref && Ref->getDecl() == Var && !Assigned.count(Ref))
        Read = true;
      return !Read;
    }

  private:
    const VarDecl *Var;
    llvm::SmallPtrSet<const DeclRefExpr *, 4> Assigned;
  } Found(Var);
  Found.walk(Body);
  return !Found.Read;
}

/// For \p Forward, in no loop of \p Function: the last statement before it
/// that trains (a backward pass or an optimizer step, here or in a function
/// of the unit it calls; a switch back to training), when nothing after it
/// in the function trains. Null when nothing before it trains, when
/// something after it does, or when the forward's own statement does.
const Stmt *trainedBefore(const Expr *Forward, const FunctionDecl *Function,
                          ASTContext &Ctx) {
  auto Trains = [&](const Stmt *S) {
    return trains(S, Ctx) || analysis::trainsThroughCalls(S, Ctx);
  };
  const Stmt *Body = Function->getBody();
  const Stmt *At = statementOf(Forward, Ctx);
  if (!At || Trains(At))
    return nullptr;
  const Stmt *Last = nullptr;
  // Outwards, block by block, to the function's body.
  for (unsigned Depth = 0; At && Depth < 16; ++Depth) {
    auto Parents = Ctx.getParents(*At);
    const auto *Block =
        Parents.empty() ? nullptr : Parents[0].get<CompoundStmt>();
    if (!Block)
      return nullptr;
    const auto *It = llvm::find(Block->body(), At);
    if (It == Block->body_end())
      return nullptr;
    for (const Stmt *After : llvm::make_range(std::next(It), Block->body_end()))
      if (Trains(After))
        return nullptr;
    if (!Last)
      for (const Stmt *Before : llvm::make_range(Block->body_begin(), It))
        if (Trains(Before))
          Last = Before;
    if (Block == Body)
      return Last;
    // The statement that holds this block (an if, a plain block); a loop
    // would run the forward again, and a lambda is another function.
    const Stmt *Holder = nullptr;
    for (auto Up = Ctx.getParents(*Block); !Up.empty();
         Up = Ctx.getParents(Up[0])) {
      if (const auto *S = Up[0].get<Stmt>()) {
        if (isa<ForStmt, CXXForRangeStmt, WhileStmt, DoStmt, LambdaExpr>(S))
          return nullptr;
        auto Grand = Ctx.getParents(*S);
        if (!Grand.empty() && Grand[0].get<CompoundStmt>()) {
          Holder = S;
          break;
        }
      } else {
        return nullptr;
      }
    }
    At = Holder;
  }
  return nullptr;
}

/// The lambda expression whose call operator is \p Function, if any.
const LambdaExpr *lambdaOf(const FunctionDecl *Function, ASTContext &Ctx) {
  const auto *MD = dyn_cast<CXXMethodDecl>(Function);
  if (!MD || !MD->getParent()->isLambda())
    return nullptr;
  // The call operator sits in the lambda's class, which the LambdaExpr holds.
  // A generic lambda's call operator is a template: \p Function may be an
  // instantiation of it (`std::visit([&](auto &layer) {...}, v)`).
  const auto *Lambda =
      analysis::nearestAncestor<LambdaExpr>(*MD->getParent(), Ctx, 4);
  const FunctionDecl *Pattern = MD->getTemplateInstantiationPattern();
  return Lambda && (Lambda->getCallOperator() == MD ||
                    (Pattern && Lambda->getCallOperator() == Pattern))
             ? Lambda
             : nullptr;
}

} // namespace

EvalWithoutGradGuardCheck::EvalWithoutGradGuardCheck(
    llvm::StringRef Name, clang::tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      GuardType(Options.get("GuardType", "NoGradGuard").str()),
      HistoryOpts(readHistoryOptions(Options, Context->getCurrentFile(), HistoryError)),
      NamesTemporaryGuards(
          Context->isCheckEnabled(checkName<UnnamedGradGuardCheck>())) {
  if (!HistoryError.empty())
    configurationDiag("%0") << HistoryError;
  if (GuardType != "NoGradGuard" && GuardType != "InferenceMode")
    configurationDiag("invalid GuardType '%0': expected NoGradGuard or "
                      "InferenceMode")
        << GuardType;
}

void EvalWithoutGradGuardCheck::storeOptions(
    clang::tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "GuardType", GuardType);
  storeHistoryOptions(Options, Opts, HistoryOpts);
}

void EvalWithoutGradGuardCheck::onStartOfTranslationUnit() {
  Facts.reset(HistoryOpts.Summaries);
  Findings.clear();
  Wrappers.clear();
}

/// Whether a call of \p MD may differentiate what it returns: one in the
/// unit (D asks where its result goes, the question the Summariser asks of
/// the calls in the defining unit), or one in another unit or in the unit
/// that defines it, as the project's summaries say.
bool EvalWithoutGradGuardCheck::resultDifferentiatedByACall(
    const CXXMethodDecl *MD, ASTContext &Ctx) {
  const analysis::CallSites &Callers = Facts.callers(Ctx);
  analysis::HistoryAnalysis &History = Facts.history(Ctx, HistoryOpts);
  if (auto Sites = Callers.of(MD))
    for (const CallExpr *Site : *Sites)
      if (analysis::callerMayDifferentiate(Site, Ctx, Callers,
                                           /*OpaqueCallsMay=*/false, &History))
        return true;
  const analysis::FunctionSummaries *Summaries =
      HistoryOpts.Summaries.get();
  if (!Summaries)
    return false;
  if (Summaries->differentiatedWhereDefined(MD))
    return true;
  if (!Callers.recordsOnlyElsewhere(MD))
    return false;
  const analysis::UsedSummary *Used = Summaries->used(MD);
  return Used && Used->Differentiated;
}

/// Whether \p MD, its body in another unit, returns a graph it makes itself
/// (its summary: history in what it returns when handed none) and trains
/// nothing there.
bool EvalWithoutGradGuardCheck::makesGraphElsewhere(const CXXMethodDecl *MD) {
  const analysis::FunctionSummaries *Summaries =
      HistoryOpts.Summaries.get();
  if (!Summaries || Summaries->runsBackward(MD))
    return false;
  const analysis::FunctionSummary *Summary = Summaries->find(MD);
  return Summary &&
         llvm::any_of(*Summary, [](const auto &Element) {
           return Element.second.NotHanded.mayHoldGraph();
         });
}

/// A helper method of a model that returns what a forward pass of its own
/// computes (`Critic_Forward(x) { return critic->forward(x); }`, an
/// `Actor_Forward` that adds a softmax), and does nothing else that this
/// check reads: it trains nothing, switches no mode, and, when no call of
/// it is in view, is not evaluation code by its name. Such a method is the
/// model's forward by another name: its caller decides, and its calls are
/// forward passes, judged where they are made (as a call of a model's
/// method whose body is out of view is).
bool EvalWithoutGradGuardCheck::isForwardWrapper(const FunctionDecl *Method,
                                                 ASTContext &Ctx) {
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(Method);
  if (!MD)
    return false;
  MD = MD->getCanonicalDecl();
  auto [It, New] = Wrappers.try_emplace(MD, false);
  if (!New)
    return It->second;
  const analysis::NameGuesses &Names = HistoryOpts.names();
  const FunctionDecl *Def = MD->getDefinition();
  const SourceManager &SM = Ctx.getSourceManager();
  bool OfModule = analysis::isModuleClass(MD->getParent());
  if (!MD->getIdentifier() || isa<CXXConstructorDecl>(MD) || MD->isStatic() ||
      (OfModule && Names.namesForward(MD->getName())) ||
      SM.isInSystemHeader(SM.getExpansionLoc(MD->getLocation())))
    return false;
  // A method of a class that is no module (a `NeuralNetwork` that holds
  // one, an agent, a trainer) is the forward by another name only on
  // evidence that its result serves both ways: some call of it
  // differentiates what it returns. Then it is its calls that are judged,
  // each where it is made (the self-play search's call, not the trainer's);
  // while none does, the forward inside it is judged, as before.
  if (!OfModule) {
    if (!analysis::holdsTensors(MD->getReturnType()) ||
        !resultDifferentiatedByACall(MD, Ctx))
      return false;
    if (!Def || !Def->hasBody()) {
      bool Wraps = makesGraphElsewhere(MD);
      Wrappers[MD] = Wraps;
      return Wraps;
    }
  }
  if (!Def || !Def->hasBody() ||
      SM.isInSystemHeader(SM.getExpansionLoc(Def->getLocation())) ||
      trains(Def->getBody(), Ctx))
    return false;
  // A name that says evaluation is a guess, asked only when no call of the
  // method is in view: calls in view are evidence, and they decide.
  // A call of a method it overrides (`model->predict(x)` through the base
  // class whose `predict` it implements) is a call of it.
  if (Names.namesEvaluation(Def)) {
    llvm::SmallVector<const CXXMethodDecl *, 4> Work{MD};
    bool Called = false;
    for (unsigned I = 0; I < Work.size() && I < 16 && !Called; ++I) {
      Called = !callersUnseen(Work[I], Facts.callers(Ctx)) ||
               Facts.callers(Ctx).calledElsewhere(Work[I]);
      for (const CXXMethodDecl *Base : Work[I]->overridden_methods())
        Work.push_back(Base->getCanonicalDecl());
    }
    if (!Called)
      return false;
  }
  // A call named `eval` or `train` switches a mode.
  class ModeSwitch : public analysis::StmtWalk {
  public:
    bool Found = false;
    bool visit(Stmt *S) override {
      if (const auto *Call = dyn_cast<CXXMemberCallExpr>(S))
        if (const CXXMethodDecl *Callee = Call->getMethodDecl();
            Callee && Callee->getIdentifier() &&
            (Callee->getName() == "eval" || Callee->getName() == "train"))
          Found = true;
      return !Found;
    }
  } Switch;
  Switch.walk(Def->getBody());
  if (Switch.Found)
    return false;
  // Its forward passes: those it makes, and the calls of the class's other
  // forward wrappers (a sampling step that adds noise to what
  // `forward_impl` returns), which are forward passes too.
  llvm::SmallVector<const CallExpr *, 4> Forwards =
      analysis::forwardCallsIn(Def->getBody(), Names);
  class OwnHelpers : public analysis::StmtWalk {
  public:
    explicit OwnHelpers(const CXXRecordDecl *Class) : Class(Class) {}
    const CXXRecordDecl *Class;
    llvm::SmallVector<const CXXMemberCallExpr *, 4> Calls;
    bool visit(Stmt *S) override {
      if (const auto *Call = dyn_cast<CXXMemberCallExpr>(S))
        if (const CXXMethodDecl *Callee = Call->getMethodDecl();
            Callee && Callee->getParent() == Class &&
            isa<CXXThisExpr>(analysis::stripWrappers(
                Call->getImplicitObjectArgument())))
          Calls.push_back(Call);
      return true;
    }
  } Helpers(MD->getParent());
  Helpers.walk(Def->getBody());
  for (const CXXMemberCallExpr *Call : Helpers.Calls)
    if (Call->getMethodDecl()->getCanonicalDecl() != MD &&
        isForwardWrapper(Call->getMethodDecl(), Ctx))
      Forwards.push_back(Call);
  // A forward the method runs under a guard of its own (a `Predict` that
  // opens a NoGradGuard before it calls the policy) returns no graph: its
  // callers need none.
  bool Wraps = llvm::any_of(Forwards, [&](const CallExpr *Forward) {
    return analysis::gradStateAt(Forward, Ctx, /*Callers=*/nullptr, Names) !=
               analysis::GradState::NotRecording &&
           analysis::returnsHistoryOf(Forward, Def, Ctx);
  });
  Wrappers[MD] = Wraps;
  return Wraps;
}

void EvalWithoutGradGuardCheck::registerMatchers(MatchFinder *Finder) {
  // A module's forward pass: model(x), model->forward(x), jit.forward(...).
  Finder->addMatcher(expr(isForward(&HistoryOpts.names())).bind("forward"),
                     this);
  // A call of a model's helper method, which may return what its own
  // forward computes (isForwardWrapper).
  Finder->addMatcher(
      cxxMemberCallExpr(unless(isForward(&HistoryOpts.names())),
                        callee(cxxMethodDecl(unless(isStaticStorageClass()))))
          .bind("helper"),
      this);
}

bool EvalWithoutGradGuardCheck::isEvalName(const FunctionDecl *Function,
                                           ASTContext &Ctx) {
  // A function that trains (a backward pass, an optimizer step) is not
  // evaluation code, whatever its name (test_rnn_xor() trains a model).
  const analysis::NameGuesses &Names = HistoryOpts.names();
  return Function->getIdentifier() &&
         !isTestBody(Function, Names, Facts.callers(Ctx)) &&
         Names.namesEvaluation(Function) &&
         !(Function->getBody() && analysis::trainsIn(Function->getBody()));
}

EvalWithoutGradGuardCheck::Context
EvalWithoutGradGuardCheck::contextOf(const Expr *Forward, ASTContext &Ctx,
                                     analysis::HistoryAnalysis &History) {
  // From the forward outwards through the lambdas that contain it: the
  // first function that is evaluation code, by an eval() before the point
  // where it runs (or builds the lambda), or by its name.
  Context C;
  const Stmt *At = Forward;
  const FunctionDecl *Function = analysis::enclosingFunction(Forward, Ctx);
  for (unsigned Depth = 0; Function && Depth < 6; ++Depth) {
    C.Function = Function;
    C.EvalCall = analysis::evalModeAt(
        Forward, At, History.flowOf(Function), Ctx, &Facts.callers(Ctx),
        [&](const FunctionDecl *FD) { return History.flowOf(FD); },
        History.options().names());
    if (C.EvalCall)
      return C;
    if (isEvalName(Function, Ctx)) {
      C.NamedBy = Function;
      return C;
    }
    const LambdaExpr *Lambda = lambdaOf(Function, Ctx);
    if (!Lambda)
      break;
    if (!C.Thread &&
        analysis::runsOnAnotherThread(Lambda, Ctx, HistoryOpts.names())) {
      C.Thread = Lambda;
      // Code that starts a thread under a guard means no graph either.
      if (analysis::gradStateAt(Lambda, Ctx, &Facts.callers(Ctx),
                                HistoryOpts.names()) ==
          analysis::GradState::NotRecording)
        C.GuardedStarter = true;
    }
    At = Lambda;
    Function = analysis::enclosingFunction(Lambda, Ctx);
  }
  return C;
}

void EvalWithoutGradGuardCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  const auto *Forward = Result.Nodes.getNodeAs<Expr>("forward");
  if (!Forward) {
    const auto *Helper = Result.Nodes.getNodeAs<CXXMemberCallExpr>("helper");
    if (!Helper || !isForwardWrapper(Helper->getMethodDecl(), Ctx))
      return;
    Forward = Helper;
  }
  const FunctionDecl *Function = analysis::enclosingFunction(Forward, Ctx);
  if (!Function || !Function->hasBody())
    return;
  // One of LibTorch's modules that holds no parameter (a padding or a
  // pooling layer run on its own) records a graph only where its input
  // carries one, which another forward made: that one is judged where it
  // runs.
  if (analysis::isParameterFreeLibraryModule(analysis::moduleRunBy(Forward)))
    return;
  // Inside a module's own forward (or a helper that returns what it
  // computes), the model's caller decides; also in a lambda that it runs
  // (`std::visit([&](auto &layer) { x = layer(x); }, layers_[l])`, the
  // body of an `at::parallel_for` that fills its outputs).
  const FunctionDecl *Owner = Function;
  for (unsigned Depth = 0; Depth < 4; ++Depth) {
    const LambdaExpr *Lambda = lambdaOf(Owner, Ctx);
    const FunctionDecl *Outer =
        Lambda ? analysis::enclosingFunction(Lambda, Ctx) : nullptr;
    if (!Outer)
      break;
    Owner = Outer;
  }
  if (const auto *MD = dyn_cast<CXXMethodDecl>(Owner))
    if (analysis::isModuleClass(MD->getParent()) &&
        (!MD->getIdentifier() ||
         HistoryOpts.names().namesForward(MD->getName()) ||
         isForwardWrapper(MD, Ctx)))
      return;
  analysis::HistoryAnalysis &History = Facts.history(Ctx, HistoryOpts);
  // A method of the model out of view is a forward pass only by
  // assumption; its summary, where there is one, is evidence.
  if (analysis::isForwardCallOutOfView(Forward, HistoryOpts.names())
          ? returnsNoHistoryElsewhere(Forward, History)
          : userForwardRecordsNothing(Forward, History))
    return;
  // A forward that runs a backward pass of its own (forces computed as the
  // gradient of the energy it predicts) needs grad mode on: under a guard
  // that backward pass finds no graph.
  if (analysis::runsBackwardPass(analysis::forwardCallee(Forward),
                                 History.options().Summaries.get()))
    return;
  // A template's pattern and its instantiations are one function in the
  // source: one finding for all of them, at the first forward.
  const FunctionDecl *Key = Function->getTemplateInstantiationPattern();
  if (!Key)
    Key = Function;
  auto Known = Findings.find(Key);
  const SourceManager &SM = Ctx.getSourceManager();
  if (Known != Findings.end() &&
      SM.isBeforeInTranslationUnit(Known->second.Forward->getBeginLoc(),
                                   Forward->getBeginLoc()))
    return;

  Context C = contextOf(Forward, Ctx, History);
  // Evaluation by use: outside test code, in a function that does not
  // train, a forward whose result is only read as numbers or detached (`item()`,
  // `argmax`, sizes) and then dropped records its graph for nothing.
  // In a function that trains, the block around the forward must train
  // nothing (a preview sample drawn between training steps). A temporary
  // guard before it (`torch::NoGradGuard();`) says the author meant no
  // graph: torch-unnamed-grad-guard reports that.
  // A value kept from one iteration to the next is the growth checks'
  // finding.
  // The structural tests come first: they are cheaper than asking D, which
  // both rules below ask at most once between them.
  bool ByContext = C.EvalCall || C.NamedBy || C.GuardedStarter;
  analysis::DeclSet Holders;
  std::optional<bool> Discarded;
  bool ThroughCallers = false;
  std::string ElsewhereAt, ReadAt;
  bool DiscardedUntrained = false;
  auto discarded = [&] {
    if (!Discarded)
      Discarded = analysis::historyDiscarded(Forward, Ctx, Facts.callers(Ctx),
                                             &Holders, &History,
                                             &ThroughCallers, &ElsewhereAt,
                                             &ReadAt, &DiscardedUntrained);
    return *Discarded;
  };
  const analysis::NameGuesses &Names = HistoryOpts.names();
  // A probe run once before training, in the training function itself
  // (`auto y = enc->forward(x); std::cout << y.sizes();` in main): its
  // graph is small, but the variable that holds it keeps it alive through
  // all the training that follows. Asked first: it says more than
  // evaluation by use about the same forward.
  if (!ByContext &&
      !isTestFunction(Function, Names, Facts.callers(Ctx)) &&
      !analysis::innermostLoop(Forward, Ctx) &&
      (analysis::updatesParametersThroughCalls(Function->getBody(), Ctx) ||
       analysis::runsModelRepeatedlyThroughCalls(Function->getBody(), Ctx,
                                                 Names)) &&
      discarded())
    if (const Stmt *Loop = heldThrough(Holders, C.Holder, C.HeldThroughTraining,
                                       Ctx, Names);
        Loop && (C.HeldThroughTraining ||
                 // A function that keeps or hands on another forward's
                 // result does autograd work (a Jacobian, column by column).
                 othersDiscarded(Forward, Function->getBody(),
                                 Facts.callers(Ctx), History, Ctx))) {
      C.Function = Function;
      C.HeldThrough = Loop;
    }
  // Evidence comes before a guess: a function that is evaluation code by
  // its name alone is asked about its use too, and when that use says it
  // is evaluation code, the finding rests on it instead of on the name.
  if (!C.EvalCall && !C.GuardedStarter && !C.HeldThrough &&
      !isTestBody(Function, Names, Facts.callers(Ctx)) &&
      (runsRepeatedly(Forward, Function, Facts.callers(Ctx), Names, Ctx,
                      C.RepeatsUnseen) ||
       (C.OnceOnData = runsOnceOnData(Forward, Function, Facts.callers(Ctx),
                                      Names, Ctx))) &&
      temporaryGuardBefore(dyn_cast<CompoundStmt>(Function->getBody()), Forward,
                           Ctx)
          .At.isInvalid() &&
      discarded()) {
    // What a guard would cover: the function, or in one that trains, the
    // block around the forward when that block trains nothing.
    // In a block that trains as well, the statement that runs it, when a
    // loop of the function repeats it: what it computes is only read,
    // while the rest of the block trains (an action taken in a rollout
    // whose loop also updates the model). One outside any loop is judged
    // as evaluation after training, below.
    const Stmt *Body = Function->getBody();
    const Stmt *Scope = Body;
    const CompoundStmt *Block = nullptr;
    const Stmt *Beside = nullptr;
    if (trains(Body, Ctx)) {
      Block = analysis::nearestAncestor<CompoundStmt>(*Forward, Ctx, 32);
      if (!Block || Block == Body || trains(Block, Ctx)) {
        Block = nullptr;
        Beside = analysis::innermostLoop(Forward, Ctx)
                     ? statementOf(Forward, Ctx)
                     : nullptr;
        // A forward in a training step whose result nothing reads is
        // training code left unfinished, not evaluation.
        if (Beside && (trains(Beside, Ctx) ||
                       resultReadNowhere(Forward, Beside, Body)))
          Beside = nullptr;
      }
      Scope = Block ? static_cast<const Stmt *>(Block) : Beside;
    }
    if (Scope &&
        othersDiscarded(Forward, Scope, Facts.callers(Ctx), History, Ctx)) {
      C.Function = Function;
      C.ByUse = true;
      if (C.RepeatsUnseen)
        if (const analysis::CalledSummary *Called =
                Facts.callers(Ctx).calledElsewhere(C.RepeatsUnseen))
          C.RepeatsCalledAt = Called->At;
      C.DroppedByCallers = ThroughCallers;
      C.DroppedElsewhereAt = ElsewhereAt;
      C.AssumedUntrained = DiscardedUntrained;
      C.KeptReadAt = ReadAt;
      C.Block = Block;
      C.BesideTraining = Beside;
      C.NamedBy = nullptr;
      for (const ValueDecl *D : Holders)
        if (const auto *Field = dyn_cast<FieldDecl>(D);
            Field && (!C.KeptIn || SM.isBeforeInTranslationUnit(
                                       Field->getLocation(),
                                       C.KeptIn->getLocation())))
          C.KeptIn = Field;
    }
  }
  if (!C.ByUse)
    C.OnceOnData = false;
  // Evaluation after training: in a function that trains, a forward run
  // once after the last statement that trains, with nothing after it that
  // trains, on data from outside, whose result is only read (a prediction
  // printed at the end of main): it evaluates what was trained. One on a
  // tensor the function makes up is a demo, as before training.
  if (!ByContext && !C.ByUse && !C.HeldThrough &&
      !isTestBody(Function, Names, Facts.callers(Ctx)) &&
      !isTestFunction(Function, Names, Facts.callers(Ctx)) &&
      !analysis::innermostLoop(Forward, Ctx))
    if (const Stmt *Trained = trainedBefore(Forward, Function, Ctx);
        Trained && runsOnData(Forward, Function, Facts.callers(Ctx), Ctx) &&
        temporaryGuardBefore(
                       dyn_cast<CompoundStmt>(Function->getBody()), Forward,
                       Ctx)
                       .At.isInvalid() &&
        discarded()) {
      C.Function = Function;
      C.TrainedBefore = Trained;
    }
  if (!ByContext && !C.ByUse && !C.HeldThrough && !C.TrainedBefore)
    return;
  // A warm-up in a constructor, or a demo or smoke test that the program
  // runs once (`main`, or a function that `main` calls once outside any
  // loop, as the calls in view say: runsOnceFromMain): one forward, outside
  // any loop, on input made up there, whose result nothing keeps past the
  // function. Its graph dies when the function returns, and it runs once
  // per object or per run. A demo's output held through a loop that runs
  // the model again and again after it is not let go, nor one that puts
  // the model in evaluation mode to run inference (as a hand-written test
  // function that does is not, below).
  if (!C.HeldThrough && !analysis::innermostLoop(Forward, Ctx)) {
    bool OncePerObject = isa<CXXConstructorDecl>(Function);
    if ((OncePerObject ||
         (!C.EvalCall &&
          runsOnceFromMain(Function, Facts.callers(Ctx), Names, Ctx))) &&
        !runsOnData(Forward, Function, Facts.callers(Ctx), Ctx) &&
        discarded() && llvm::none_of(Holders, [](const ValueDecl *D) {
          const auto *Var = dyn_cast<VarDecl>(D);
          return !Var || !Var->hasLocalStorage();
        })) {
      const VarDecl *Holder = nullptr;
      bool Training = false;
      if (OncePerObject ||
          !heldThrough(Holders, Holder, Training, Ctx, Names))
        return;
    }
  }
  // A unit test that runs the model once keeps nothing past the test; so
  // does a hand-written test function, unless it puts the model in
  // evaluation mode to run inference.
  if (C.Function && !analysis::innermostLoop(Forward, Ctx) &&
      (isTestBody(C.Function, Names, Facts.callers(Ctx)) ||
       (!C.EvalCall && isTestFunction(C.Function, Names, Facts.callers(Ctx)))))
    return;

  // A guard is active (here, or at every call of this function).
  if (analysis::gradStateAt(Forward, Ctx, &Facts.callers(Ctx), Names) !=
      analysis::GradState::Recording)
    return;
  // The module's parameters frozen around the forward (`for (auto &p :
  // net->parameters()) p.requires_grad_(false);` before it, set back after
  // it), run on inputs that need no gradient: nothing records a graph.
  if (parametersFrozen(Forward, Ctx, History))
    return;

  // The result is differentiated: here, by a caller it is returned to,
  // through a member that a backward pass walks, or through an argument
  // the forward fills. A prediction that returns
  // the forward's result is evaluation code unless a caller differentiates
  // it.
  bool Untrained = false;
  if (analysis::mayBeDifferentiated(Forward, Ctx, Facts.callers(Ctx),
                                    /*OpaqueCallsMay=*/false, &History,
                                    &Untrained) ||
      fillsDifferentiatedArgument(Forward, Ctx, Facts.callers(Ctx), History))
    return;
  C.AssumedUntrained |= Untrained;
  // ... unless code out of view that gets the result differentiates it.
  C.OpaqueTakenNotToDifferentiate =
      analysis::mayBeDifferentiated(Forward, Ctx, Facts.callers(Ctx),
                                    /*OpaqueCallsMay=*/true, &History,
                                    &Untrained);
  C.AssumedUntrained |= Untrained;
  // Evaluation code by its name alone, whose result goes to code out of
  // view: two guesses and no evidence (an actor's `get_action` whose only
  // callers, in a file that does not parse, run it under a guard). Left
  // alone; a mode switch, or a use of the result in view, is evidence.
  if (C.NamedBy && !C.EvalCall && !C.GuardedStarter && !C.Thread &&
      C.OpaqueTakenNotToDifferentiate)
    return;

  Findings[Key] = Finding{Forward, C, &Ctx, Function};
}

void EvalWithoutGradGuardCheck::onEndOfTranslationUnit() {
  for (auto &[Key, F] : Findings)
    report(F.Function, F);
  Findings.clear();
}

// Where a statement of \p Body, before \p Forward, only builds a guard
// temporary switching recording off (`torch::NoGradGuard();`) or names a
// guard type with no object (`torch::NoGradGuard;`): once named, it covers
// the rest of the body. Invalid when there is none.
static UnnamedGuard temporaryGuardBefore(const CompoundStmt *Body,
                                         const Expr *Forward, ASTContext &Ctx) {
  if (!Body)
    return {};
  const SourceManager &SM = Ctx.getSourceManager();
  for (const analysis::GuardWithoutObject &Guard :
       analysis::guardsWithoutObject(Body, Ctx))
    if (SM.isBeforeInTranslationUnit(Guard.Name.getEnd(), Forward->getBeginLoc()))
      return {Guard.Name.getBegin(), UnnamedGuard::DeclaresNothing};
  for (const Stmt *S : Body->body()) {
    if (!SM.isBeforeInTranslationUnit(S->getEndLoc(), Forward->getBeginLoc()))
      break;
    if (const auto *Declaration = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : Declaration->decls())
        if (analysis::isGuardDeclaredAsFunction(dyn_cast<FunctionDecl>(D)))
          return {D->getLocation(), UnnamedGuard::DeclaresFunction};
      continue;
    }
    const Expr *E = dyn_cast<Expr>(S);
    if (!E)
      continue;
    E = E->IgnoreImplicit();
    if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(E))
      E = Cast->getSubExpr()->IgnoreImplicit();
    const auto *Construct = dyn_cast<CXXConstructExpr>(E);
    if (!Construct)
      continue;
    analysis::GuardKind Kind = analysis::guardKindOfType(Construct->getType());
    if (Kind == analysis::GuardKind::NoGrad ||
        Kind == analysis::GuardKind::InferenceMode)
      return {S->getBeginLoc()};
  }
  return {};
}

void EvalWithoutGradGuardCheck::report(const FunctionDecl *Function,
                                       const Finding &F) {
  ASTContext &Ctx = *F.Ctx;
  const Context &C = F.Where;
  bool Inference = GuardType == "InferenceMode";
  std::string Guard = Inference ? "c10::InferenceMode" : "torch::NoGradGuard";
  UnnamedGuard Temporary;
  // The notes on the forward sit where its warning does: at the macro's
  // expansion when the forward is written in a macro's argument.
  SourceLocation NoteAt =
      Ctx.getSourceManager().getExpansionLoc(F.Forward->getBeginLoc());
  {
    auto Diag =
        C.Thread
            ? diag(F.Forward->getBeginLoc(),
                   "the model runs forward on another thread with no "
                   "torch::NoGradGuard or c10::InferenceMode of its own: grad "
                   "mode is thread-local, so the guard or evaluation mode of "
                   "the code that starts the thread does not apply, and every "
                   "call records an autograd graph and keeps its activations "
                   "alive as long as the outputs")
        : C.HeldThrough || C.OnceOnData || C.TrainedBefore
            ? diag(F.Forward->getBeginLoc(),
                   "the model runs forward once with no torch::NoGradGuard or "
                   "c10::InferenceMode and its result is only read as numbers or detached, "
                   "so it records an autograd graph and keeps its activations "
                   "alive as long as the output")
            : diag(F.Forward->getBeginLoc(),
                   "the model runs forward in evaluation code with no "
                   "torch::NoGradGuard or c10::InferenceMode, so every call "
                   "records an autograd graph and keeps its activations "
                   "alive as long as the outputs");
    Diag << F.Forward->getSourceRange();
    // Insert the guard where it covers only evaluation: first in the
    // thread's lambda; right after the eval() call when nothing after it in
    // that block trains; or first in the function that is evaluation code
    // by its name or by its class.
    // A guard of this function that protects nothing (a temporary, or one
    // in another scope) may be given a name by torch-unnamed-grad-guard's
    // fix in the same run: keep clear of the names that fix gives.
    const FunctionDecl *GuardedFunction =
        C.Thread ? Function : (C.NamedBy ? C.NamedBy : C.Function);
    llvm::StringSet<> Taken = fixits::namesUsedIn(GuardedFunction);
    const auto *GuardedBody =
        dyn_cast_or_null<CompoundStmt>(GuardedFunction->getBody());
    if (analysis::holdsGuardsTheUnnamedFixNames(GuardedBody, Ctx))
      for (const char *Reserved : {"no_grad", "inference_mode", "grad_mode"})
        Taken.insert(Reserved);
    std::string Name =
        fixits::freshName(Inference ? "inference_mode" : "no_grad", Taken);
    std::string Declaration = Guard + " " + Name + ";";
    std::optional<FixItHint> Fix;
    const auto *EvalIn = C.EvalCall ? analysis::enclosingFunction(C.EvalCall, Ctx)
                                    : nullptr;
    if (C.EvalCall && EvalIn == C.Function && !C.Thread) {
      const Stmt *EvalStmt = statementOf(cast<Expr>(C.EvalCall), Ctx);
      auto Parents = EvalStmt ? Ctx.getParents(*EvalStmt)
                              : DynTypedNodeList(DynTypedNode());
      const auto *Block =
          Parents.empty() ? nullptr : Parents[0].get<CompoundStmt>();
      bool TrainsAfter = !Block;
      if (Block) {
        const auto *It = llvm::find(Block->body(), EvalStmt);
        for (++It; It != Block->body_end() && !TrainsAfter; ++It)
          TrainsAfter |= trains(*It, Ctx) || analysis::trainsThroughCalls(*It, Ctx);
      }
      if (!TrainsAfter)
        Fix = fixits::insertLineAfter(EvalStmt, Declaration, Ctx);
    } else if (C.TrainedBefore) {
      // Nothing after it trains: a guard from here to the end of the
      // function covers evaluation only.
      if (const Stmt *At = statementOf(F.Forward, Ctx))
        Fix = fixits::insertLineBefore(At, Declaration, Ctx);
    } else if (C.HeldThrough) {
      // A guard here would stop the training that follows from recording:
      // no fix.
    } else if (C.Block) {
      // A guard in a block of a training function covers what else the
      // block computes: only where all of that stays in the block.
      if (!writesOutside(C.Block, Ctx, HistoryOpts.names()))
        Fix = fixits::insertAtStart(C.Block, Declaration, Ctx);
    } else if (const auto *Body =
                   dyn_cast_or_null<CompoundStmt>(GuardedFunction->getBody())) {
      // Not where it would cover training, done here or in a function
      // this one calls (`check_train()` after the rollout's forward).
      if (!trains(Body, Ctx) && !analysis::trainsThroughCalls(Body, Ctx))
        Fix = fixits::insertAtStart(Body, Declaration, Ctx);
    }
    // A temporary guard that torch-unnamed-grad-guard names in this same run
    // will cover the call: a second guard would only repeat it.
    const auto *TopBody = dyn_cast_or_null<CompoundStmt>(Function->getBody());
    Temporary =
        NamesTemporaryGuards && TopBody
            ? temporaryGuardBefore(TopBody, F.Forward, Ctx)
            : UnnamedGuard();
    if (Temporary.At.isValid())
      Fix.reset();
    if (Fix)
      Diag << *Fix;
  }
  if (Temporary.At.isValid())
    diag(Temporary.At,
         "%select{this guard is a temporary that protects nothing|this "
         "statement names a guard type but declares no object, so it protects "
         "nothing|this statement declares a function, not a guard, so it "
         "protects nothing}0; the fix of %1 %select{names it|names it|drops "
         "its parentheses}0, which covers this call",
         DiagnosticIDs::Note)
        << static_cast<unsigned>(Temporary.Written)
        << checkName<UnnamedGradGuardCheck>();
  if (C.Thread) {
    const CXXConstructExpr *Construct = nullptr;
    bool ByName = false;
    const CallExpr *HandOff = analysis::threadHandOff(
        C.Thread, Ctx, &Construct, HistoryOpts.names(), &ByName);
    SourceLocation Start = HandOff ? HandOff->getBeginLoc()
                                   : Construct ? Construct->getBeginLoc()
                                               : C.Thread->getBeginLoc();
    diag(Start,
         "the thread that runs it is started here%select{| (a thread pool "
         "known by its name: options ThreadPoolWords and ThreadPoolMethods)}0",
         DiagnosticIDs::Note)
        << ByName;
  }
  if (C.EvalCall) {
    const FunctionDecl *SetIn = analysis::enclosingFunction(C.EvalCall, Ctx);
    const ValueDecl *Model =
        analysis::moduleOf(analysis::forwardObject(F.Forward));
    if (SetIn == C.Function)
      diag(C.EvalCall->getBeginLoc(), "evaluation mode is set here",
           DiagnosticIDs::Note);
    else if (isa_and_nonnull<ParmVarDecl>(Model))
      diag(C.EvalCall->getBeginLoc(),
           "evaluation mode is set here, and every call of '%0' in view is "
           "made with the model in that mode",
           DiagnosticIDs::Note)
          << C.Function->getNameAsString();
    else {
      // Set in a method that only its name says makes the object ready.
      const auto *Member = dyn_cast_or_null<FieldDecl>(Model);
      const auto *Method = dyn_cast_or_null<CXXMethodDecl>(SetIn);
      const auto *Set = dyn_cast<CXXMemberCallExpr>(C.EvalCall);
      bool ByName = Member && Method && !isa<CXXConstructorDecl>(Method) &&
                    Set &&
                    analysis::moduleOf(Set->getImplicitObjectArgument()) ==
                        Member;
      diag(C.EvalCall->getBeginLoc(),
           "evaluation mode is set here, and the class never sets it back "
           "to training%select{| ('%1' is taken to make the object ready "
           "by its name: option ReadyMethods)}0",
           DiagnosticIDs::Note)
          << ByName << (Method ? Method->getNameAsString() : std::string());
    }
  }
  else if (C.TrainedBefore)
    diag(C.TrainedBefore->getBeginLoc(),
         "'%0' trains here, before it, and nothing after it trains: it "
         "evaluates what was trained, and its result is only read as numbers "
         "or detached",
         DiagnosticIDs::Note)
        << C.Function->getNameAsString();
  else if (C.NamedBy)
    diag(C.NamedBy->getLocation(),
         "'%0' is evaluation code by its name (option EvalFunctions)",
         DiagnosticIDs::Note)
        << C.NamedBy->getName();
  else if (C.ByUse && C.KeptIn && !C.KeptReadAt.empty())
    diag(NoteAt,
         "its result is only read as numbers or detached in '%0' and kept in "
         "'%1', whose reads differentiate nothing, here or in other files as "
         "the project's function summaries say (the first at %2)",
         DiagnosticIDs::Note)
        << C.Function->getNameAsString() << C.KeptIn->getName()
        << C.KeptReadAt;
  else if (C.ByUse && C.KeptIn)
    diag(NoteAt,
         "its result is only read as numbers or detached in '%0' and kept in '%1', a "
         "private member that only its class reads%select{| (the callers of "
         "the methods that return what is computed from it drop that)}2: "
         "nothing differentiates it",
         DiagnosticIDs::Note)
        << C.Function->getNameAsString() << C.KeptIn->getName()
        << C.DroppedByCallers;
  else if (C.ByUse)
    diag(NoteAt,
         "its result is only read as numbers or detached and dropped in '%0'%select{|"
         " and in the callers it is handed back to (returned, or written "
         "into an out-parameter)}1: nothing differentiates it",
         DiagnosticIDs::Note)
        << C.Function->getNameAsString() << C.DroppedByCallers;
  else if (C.HeldThrough) {
    diag(NoteAt,
         "its result is only read as numbers or detached, but '%0' keeps its graph alive "
         "%select{while the model runs again and again after it|through the "
         "training that follows}2, until '%1' returns; run it under a guard "
         "in a block of its own",
         DiagnosticIDs::Note)
        << C.Holder->getName() << C.Function->getNameAsString()
        << C.HeldThroughTraining;
    diag(C.HeldThrough->getBeginLoc(),
         "%select{the model runs again and again here|the training loop "
         "starts here}0",
         DiagnosticIDs::Note)
        << C.HeldThroughTraining;
  } else if (C.GuardedStarter)
    diag(C.Function->getLocation(),
         "'%0' starts the thread while a guard is active", DiagnosticIDs::Note)
        << C.Function->getNameAsString();
  if (C.ByUse && C.BesideTraining)
    diag(C.BesideTraining->getBeginLoc(),
         "no fix: a guard in this block would also cover the training beside "
         "it; run the forward under a guard in a block of its own",
         DiagnosticIDs::Note);
  if (C.ByUse && C.OnceOnData)
    diag(NoteAt,
         "'%0' runs it on data from outside, not on a tensor it makes up "
         "for a probe: it is inference, and a guard costs nothing",
         DiagnosticIDs::Note)
        << C.Function->getNameAsString();
  if (C.ByUse && !C.DroppedElsewhereAt.empty())
    diag(NoteAt,
         "callers in other files do not differentiate what is returned to "
         "them, as the project's function summaries say (the first at %0)",
         DiagnosticIDs::Note)
        << C.DroppedElsewhereAt;
  // What the finding assumes about code out of view.
  if (analysis::isForwardCallOutOfView(F.Forward, HistoryOpts.names()))
    diag(NoteAt,
         "this is a method of the model with no body in view, taken for its "
         "forward pass",
         DiagnosticIDs::Note);
  if (C.ByUse && C.RepeatsUnseen && !C.RepeatsCalledAt.empty())
    diag(C.RepeatsUnseen->getLocation(),
         "'%0' is called only in other files, as the project's function "
         "summaries say (the first at %1): it is taken to run again and again",
         DiagnosticIDs::Note)
        << C.RepeatsUnseen->getNameAsString() << C.RepeatsCalledAt;
  else if (C.ByUse && C.RepeatsUnseen)
    diag(C.RepeatsUnseen->getLocation(),
         "no call of '%0' is in view: it is taken to run again and again",
         DiagnosticIDs::Note)
        << C.RepeatsUnseen->getNameAsString();
  if (C.AssumedUntrained)
    diag(NoteAt,
         "no file of the project runs a backward pass or an optimizer step, "
         "as its function summaries say: code out of view that gets the "
         "result is taken not to differentiate it or keep it",
         DiagnosticIDs::Note);
  if (C.OpaqueTakenNotToDifferentiate)
    diag(NoteAt,
         "code with no body in view gets its result and is taken not to "
         "differentiate it (the project's function summaries would say for "
         "sure)",
         DiagnosticIDs::Note);
}

} // namespace torch_tidy
