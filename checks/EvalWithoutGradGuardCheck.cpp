//===--- EvalWithoutGradGuardCheck.cpp - torch-eval-without-grad-guard ----===//

#include "checks/EvalWithoutGradGuardCheck.h"

#include "checks/CheckTable.h"
#include "checks/UnnamedGradGuardCheck.h"
#include "checks/analysis/ExprUtils.h"
#include "checks/analysis/GradGuard.h"
#include "checks/analysis/LoopScope.h"
#include "checks/analysis/TensorSources.h"
#include "checks/analysis/TorchTypes.h"
#include "fixits/Edits.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torch_tidy {

static constexpr llvm::StringLiteral DefaultEvalFunctions =
    "^([Ee]val(uate)?|[Vv]alid(ate|ation)?|[Tt]est|[Pp]redict|[Ii]nfer(ence)?)"
    "([_A-Z0-9].*)?$";

namespace {
AST_MATCHER(Expr, isForward) { return analysis::isForwardCall(&Node); }

/// The module object a call is made on: `model` for `model->eval()`,
/// `model.eval()`, `model->forward(x)`, `model(x)`.
const ValueDecl *moduleOf(const Expr *Object) {
  for (unsigned Depth = 0; Depth < 4 && Object; ++Depth) {
    Object = analysis::stripWrappers(Object);
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Object);
        Op && (Op->getOperator() == OO_Arrow || Op->getOperator() == OO_Star)) {
      Object = Op->getArg(0);
      continue;
    }
    if (const auto *Call = dyn_cast<CXXMemberCallExpr>(Object);
        Call && Call->getMethodDecl() &&
        Call->getMethodDecl()->getName() == "ptr") {
      Object = Call->getImplicitObjectArgument();
      continue;
    }
    return analysis::referencedDecl(Object);
  }
  return nullptr;
}

const Expr *forwardObject(const Expr *Forward) {
  Forward = analysis::stripWrappers(Forward);
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Forward))
    return Op->getArg(0);
  if (const auto *Call = dyn_cast<CXXMemberCallExpr>(Forward))
    return Call->getImplicitObjectArgument();
  return nullptr;
}

/// `m->eval()` / `m->train(false)` (evaluation) or `m->train()` (training).
enum class Mode { None, Eval, Train };
Mode modeSetBy(const Stmt *S, const ASTContext &Ctx) {
  const auto *Call = dyn_cast<CXXMemberCallExpr>(S);
  const CXXMethodDecl *MD = Call ? Call->getMethodDecl() : nullptr;
  if (!MD || !MD->getIdentifier() ||
      !analysis::isModuleClass(MD->getParent()))
    return Mode::None;
  if (MD->getName() == "eval")
    return Mode::Eval;
  if (MD->getName() != "train")
    return Mode::None;
  if (Call->getNumArgs() > 0 && !isa<CXXDefaultArgExpr>(Call->getArg(0)) &&
      analysis::evaluateOptionalBool(Call->getArg(0), Ctx) ==
          analysis::OptionalBool::False)
    return Mode::Eval;
  return Mode::Train;
}

/// Everything that marks training: a backward pass, an optimizer step,
/// switching a module back to training.
class TrainingFinder : public RecursiveASTVisitor<TrainingFinder> {
public:
  explicit TrainingFinder(const ASTContext &Ctx) : Ctx(Ctx) {}
  bool Found = false;
  bool VisitCallExpr(CallExpr *Call) {
    const FunctionDecl *FD = Call->getDirectCallee();
    if (analysis::isBackwardFunction(FD) ||
        modeSetBy(Call, Ctx) == Mode::Train)
      Found = true;
    if (const auto *MD = dyn_cast_or_null<CXXMethodDecl>(FD))
      if (MD->getIdentifier() && MD->getName() == "step" &&
          analysis::derivesFrom(MD->getParent(), "torch::optim::Optimizer"))
        Found = true;
    return !Found;
  }

private:
  const ASTContext &Ctx;
};

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

/// The variable the result of \p Forward is stored into, if any.
const ValueDecl *resultVariable(const Expr *Forward, ASTContext &Ctx) {
  DynTypedNode Node = DynTypedNode::create(*Forward);
  for (unsigned Depth = 0; Depth < 16; ++Depth) {
    auto Parents = Ctx.getParents(Node);
    if (Parents.empty())
      return nullptr;
    const DynTypedNode &Parent = Parents[0];
    if (const auto *Var = Parent.get<VarDecl>())
      return Var;
    if (const auto *Op = Parent.get<CXXOperatorCallExpr>();
        Op && Op->getOperator() == OO_Equal)
      return analysis::referencedDecl(Op->getArg(0));
    if (Parent.get<Stmt>() && !Parent.get<Expr>())
      return nullptr;
    Node = Parent;
  }
  return nullptr;
}

class BackwardAndReturns : public RecursiveASTVisitor<BackwardAndReturns> {
public:
  llvm::SmallVector<const Expr *, 4> Roots;
  llvm::SmallVector<const Expr *, 4> Returned;
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool VisitCallExpr(CallExpr *Call) {
    if (analysis::isBackwardFunction(Call->getDirectCallee()))
      if (const Expr *Root = analysis::backwardRoots(Call))
        Roots.push_back(Root);
    return true;
  }
  bool VisitReturnStmt(ReturnStmt *Return) {
    if (Return->getRetValue())
      Returned.push_back(Return->getRetValue());
    return true;
  }
};
} // namespace

EvalWithoutGradGuardCheck::EvalWithoutGradGuardCheck(
    llvm::StringRef Name, clang::tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      EvalFunctions(Options.get("EvalFunctions", DefaultEvalFunctions).str()),
      GuardType(Options.get("GuardType", "NoGradGuard").str()),
      AssumeUnknownTensorsCarryHistory(
          Options.get("AssumeUnknownTensorsCarryHistory", false)),
      NamesTemporaryGuards(
          Context->isCheckEnabled(checkName<UnnamedGradGuardCheck>())),
      EvalFunctionsRegex(EvalFunctions) {
  std::string Error;
  if (!EvalFunctionsRegex.isValid(Error))
    configurationDiag("invalid regular expression in EvalFunctions '%0': %1")
        << EvalFunctions << Error;
  if (GuardType != "NoGradGuard" && GuardType != "InferenceMode")
    configurationDiag("invalid GuardType '%0': expected NoGradGuard or "
                      "InferenceMode")
        << GuardType;
}

void EvalWithoutGradGuardCheck::storeOptions(
    clang::tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "EvalFunctions", EvalFunctions);
  Options.store(Opts, "GuardType", GuardType);
  Options.store(Opts, "AssumeUnknownTensorsCarryHistory",
                AssumeUnknownTensorsCarryHistory);
}

void EvalWithoutGradGuardCheck::onStartOfTranslationUnit() {
  Facts.reset();
  Findings.clear();
}

void EvalWithoutGradGuardCheck::registerMatchers(MatchFinder *Finder) {
  // A module's forward pass: model(x), model->forward(x), jit.forward(...).
  Finder->addMatcher(expr(isForward()).bind("forward"), this);
}

void EvalWithoutGradGuardCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  const auto *Forward = Result.Nodes.getNodeAs<Expr>("forward");
  const FunctionDecl *Function = analysis::enclosingFunction(Forward, Ctx);
  if (!Function || !Function->hasBody())
    return;
  // Inside a module's own forward, the model's caller decides.
  if (const auto *MD = dyn_cast<CXXMethodDecl>(Function))
    if (analysis::isModuleClass(MD->getParent()))
      return;
  auto Known = Findings.find(Function);
  const SourceManager &SM = Ctx.getSourceManager();
  if (Known != Findings.end() &&
      SM.isBeforeInTranslationUnit(Known->second.Forward->getBeginLoc(),
                                   Forward->getBeginLoc()))
    return;

  // Evaluation code: after m->eval() on every path (and no train() since),
  // or in a function named like an evaluation.
  analysis::HistoryAnalysis &History =
      Facts.history(Ctx, AssumeUnknownTensorsCarryHistory);
  const Stmt *EvalCall = nullptr;
  const ValueDecl *Model = moduleOf(forwardObject(Forward));
  if (const analysis::FunctionFlow *Flow = History.flowAt(Forward)) {
    auto Nearest = Flow->nearestBefore(Forward, [&](const Stmt *S) {
      return modeSetBy(S, Ctx) != Mode::None &&
             (!Model || moduleOf(cast<CXXMemberCallExpr>(S)
                                     ->getImplicitObjectArgument()) == Model);
    });
    if (!Nearest.ReachesEntry && !Nearest.Found.empty() &&
        llvm::all_of(Nearest.Found,
                     [&](const Stmt *S) { return modeSetBy(S, Ctx) == Mode::Eval; }))
      EvalCall = Nearest.Found.front();
  }
  bool NamedEval = Function->getIdentifier() &&
                   EvalFunctionsRegex.match(Function->getName());
  if (!EvalCall && !NamedEval)
    return;

  // A guard is active (here, or at every call of this function).
  if (analysis::gradStateAt(Forward, Ctx, &Facts.callers(Ctx)) !=
      analysis::GradState::Recording)
    return;

  // The result is differentiated here, or returned with its history.
  BackwardAndReturns Uses;
  Uses.TraverseStmt(Function->getBody());
  analysis::TensorSources Sources(Function->getBody());
  const ValueDecl *ResultVar = resultVariable(Forward, Ctx);
  auto FlowsInto = [&](const Expr *E) {
    return analysis::contains(E, Forward) ||
           (ResultVar && Sources.sourcesOf(E).contains(ResultVar));
  };
  for (const Expr *Root : Uses.Roots)
    if (FlowsInto(Root))
      return;
  for (const Expr *Returned : Uses.Returned)
    if (FlowsInto(Returned) && History.carriesHistory(Returned))
      return;

  Findings[Function] = Finding{Forward, EvalCall, &Ctx};
}

void EvalWithoutGradGuardCheck::onEndOfTranslationUnit() {
  for (auto &[Function, F] : Findings)
    report(Function, F);
  Findings.clear();
}

// Whether \p Body constructs a grad-mode guard anywhere.
static bool constructsGuard(const Stmt *Body) {
  struct Finder : RecursiveASTVisitor<Finder> {
    bool Found = false;
    bool VisitCXXConstructExpr(CXXConstructExpr *E) {
      Found |= torch_tidy::analysis::guardKindOfType(E->getType()) !=
               torch_tidy::analysis::GuardKind::None;
      return !Found;
    }
  } F;
  F.TraverseStmt(const_cast<Stmt *>(Body));
  return F.Found;
}

// A statement of \p Body, before \p Forward, that only builds a guard
// temporary switching recording off (`torch::NoGradGuard();`): once named,
// it covers the rest of the body.
static const Stmt *temporaryGuardBefore(const CompoundStmt *Body,
                                        const Expr *Forward,
                                        const SourceManager &SM) {
  for (const Stmt *S : Body->body()) {
    if (!SM.isBeforeInTranslationUnit(S->getEndLoc(), Forward->getBeginLoc()))
      break;
    const Expr *E = dyn_cast<Expr>(S);
    if (!E)
      continue;
    E = E->IgnoreImplicit();
    if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(E))
      E = Cast->getSubExpr()->IgnoreImplicit();
    const auto *Construct = dyn_cast<CXXConstructExpr>(E);
    if (!Construct)
      continue;
    torch_tidy::analysis::GuardKind Kind =
        torch_tidy::analysis::guardKindOfType(Construct->getType());
    if (Kind == torch_tidy::analysis::GuardKind::NoGrad ||
        Kind == torch_tidy::analysis::GuardKind::InferenceMode)
      return S;
  }
  return nullptr;
}

void EvalWithoutGradGuardCheck::report(const FunctionDecl *Function,
                                       const Finding &F) {
  ASTContext &Ctx = *F.Ctx;
  bool Inference = GuardType == "InferenceMode";
  std::string Guard = Inference ? "c10::InferenceMode" : "torch::NoGradGuard";
  const Stmt *Temporary = nullptr;
  {
    auto Diag = diag(F.Forward->getBeginLoc(),
                     "the model runs forward in evaluation code with no "
                     "torch::NoGradGuard or c10::InferenceMode, so every call "
                     "records an autograd graph and keeps its activations "
                     "alive as long as the outputs")
                << F.Forward->getSourceRange();
    // Insert the guard where it covers only evaluation: right after the
    // eval() call when nothing after it in that block trains, or first in
    // a function that is evaluation code by its name.
    // A guard of this function that protects nothing (a temporary, or one
    // in another scope) may be given a name by torch-unnamed-grad-guard's
    // fix in the same run: keep clear of the names that fix gives.
    llvm::StringSet<> Taken = fixits::namesUsedIn(Function);
    if (constructsGuard(Function->getBody()))
      for (const char *Reserved : {"no_grad", "inference_mode", "grad_mode"})
        Taken.insert(Reserved);
    std::string Name =
        fixits::freshName(Inference ? "inference_mode" : "no_grad", Taken);
    std::string Declaration = Guard + " " + Name + ";";
    std::optional<FixItHint> Fix;
    if (F.EvalCall) {
      const Stmt *EvalStmt = statementOf(cast<Expr>(F.EvalCall), Ctx);
      auto Parents = EvalStmt ? Ctx.getParents(*EvalStmt)
                              : DynTypedNodeList(DynTypedNode());
      const auto *Block =
          Parents.empty() ? nullptr : Parents[0].get<CompoundStmt>();
      bool TrainsAfter = !Block;
      if (Block) {
        const auto *It = llvm::find(Block->body(), EvalStmt);
        for (++It; It != Block->body_end() && !TrainsAfter; ++It) {
          TrainingFinder Finder(Ctx);
          Finder.TraverseStmt(const_cast<Stmt *>(*It));
          TrainsAfter |= Finder.Found;
        }
      }
      if (!TrainsAfter)
        Fix = fixits::insertLineAfter(EvalStmt, Declaration, Ctx);
    } else if (const auto *Body = dyn_cast<CompoundStmt>(Function->getBody())) {
      TrainingFinder Finder(Ctx);
      Finder.TraverseStmt(const_cast<CompoundStmt *>(Body));
      if (!Finder.Found)
        Fix = fixits::insertAtStart(Body, Declaration, Ctx);
    }
    // A temporary guard that torch-unnamed-grad-guard names in this same run
    // will cover the call: a second guard would only repeat it.
    const auto *TopBody = dyn_cast_or_null<CompoundStmt>(Function->getBody());
    Temporary =
        NamesTemporaryGuards && TopBody
            ? temporaryGuardBefore(TopBody, F.Forward, Ctx.getSourceManager())
            : nullptr;
    if (Temporary)
      Fix.reset();
    if (Fix)
      Diag << *Fix;
  }
  if (Temporary)
    diag(Temporary->getBeginLoc(),
         "this guard is a temporary that protects nothing; the fix of "
         "%0 names it, which covers this call",
         DiagnosticIDs::Note)
        << checkName<UnnamedGradGuardCheck>();
  if (F.EvalCall)
    diag(F.EvalCall->getBeginLoc(), "evaluation mode is set here",
         DiagnosticIDs::Note);
  else
    diag(Function->getLocation(),
         "'%0' is evaluation code by its name (option EvalFunctions)",
         DiagnosticIDs::Note)
        << Function->getName();
}

} // namespace torch_tidy
