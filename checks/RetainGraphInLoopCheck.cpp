//===--- RetainGraphInLoopCheck.cpp - torch-retain-graph-in-loop ----------===//

#include "checks/RetainGraphInLoopCheck.h"

#include "checks/HistoryOptions.h"

#include "checks/analysis/BackwardPasses.h"
#include "checks/analysis/LoopScope.h"
#include "checks/analysis/TensorSources.h"
#include "checks/analysis/TorchTypes.h"
#include "checks/analysis/Walk.h"
#include "fixits/Edits.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torch_tidy {

namespace {
/// at::Tensor::backward, torch::autograd::backward or torch::autograd::grad.
AST_MATCHER(FunctionDecl, isBackwardPass) {
  return analysis::isBackwardFunction(&Node);
}

/// The argument given for the callee's `retain_graph` parameter is written
/// and is the constant true (`true`, `c10::optional<bool>(true)`, ...). The
/// slot is found by the parameter's position, never by a comment beside it.
AST_MATCHER(CallExpr, retainsGraph) {
  const FunctionDecl *Callee = Node.getDirectCallee();
  std::optional<unsigned> Index =
      Callee ? analysis::parameterIndex(Callee, "retain_graph") : std::nullopt;
  if (!Index || *Index >= Node.getNumArgs())
    return false;
  return analysis::evaluateOptionalBool(Node.getArg(*Index),
                                        Finder->getASTContext()) ==
         analysis::OptionalBool::True;
}

/// Every backward pass inside a statement.
class BackwardCalls : public analysis::StmtWalk {
public:
  llvm::SmallVector<const CallExpr *, 4> Calls;
  bool visit(Stmt *S) override {
    const auto *Call = dyn_cast<CallExpr>(S);
    if (Call && analysis::isBackwardFunction(Call->getDirectCallee()))
      Calls.push_back(Call);
    return true;
  }
};

/// Whether a backward pass written after \p Call in \p Loop's body walks a
/// graph that shares a tensor with \p Call's: then the retained graph is
/// needed, and freed with the iteration.
bool laterBackwardNeedsGraph(const CallExpr *Call, const Stmt *Loop,
                             ASTContext &Ctx) {
  const Stmt *Body = analysis::enclosingFunctionBody(Call, Ctx);
  const Expr *Roots = analysis::backwardRoots(Call);
  if (!Body || !Roots)
    return false;
  analysis::TensorSources Sources(Body);
  analysis::DeclSet Mine = Sources.sourcesOf(Roots);
  BackwardCalls Later;
  Later.walk(analysis::loopBody(Loop));
  const SourceManager &SM = Ctx.getSourceManager();
  for (const CallExpr *Other : Later.Calls) {
    if (Other == Call ||
        !SM.isBeforeInTranslationUnit(Call->getEndLoc(), Other->getBeginLoc()))
      continue;
    const Expr *OtherRoots = analysis::backwardRoots(Other);
    if (!OtherRoots)
      continue;
    for (const ValueDecl *D : Sources.sourcesOf(OtherRoots))
      if (Mine.contains(D))
        return true;
  }
  return false;
}
/// Whether \p Call is `torch::autograd::grad` with `create_graph` the
/// constant true (a gradient penalty, forces as the gradient of an energy,
/// a derivative of a physics residual): the gradients it returns carry a
/// graph through the one they were taken from, which autograd keeps for
/// them whatever `retain_graph` says (it defaults to `create_graph`). It
/// lives as long as those gradients do, and `false` there would break a
/// backward pass through them. (`backward()` with `create_graph` keeps its
/// graph in the parameters' `.grad` instead, and stays reported.)
bool createsGradientGraph(const CallExpr *Call, ASTContext &Ctx) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || Callee->getName() != "grad")
    return false;
  std::optional<unsigned> Index = analysis::parameterIndex(Callee, "create_graph");
  return Index && *Index < Call->getNumArgs() &&
         analysis::evaluateOptionalBool(Call->getArg(*Index), Ctx) ==
             analysis::OptionalBool::True;
}
} // namespace

RetainGraphInLoopCheck::RetainGraphInLoopCheck(llvm::StringRef Name,
                                               clang::tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context) {
  std::string Error;
  Names = readNameGuesses(Options, Error);
  if (!Error.empty())
    configurationDiag("%0") << Error;
}

void RetainGraphInLoopCheck::storeOptions(
    clang::tidy::ClangTidyOptions::OptionMap &Opts) {
  storeNameGuesses(Options, Opts, *Names);
}

void RetainGraphInLoopCheck::registerMatchers(MatchFinder *Finder) {
  // A backward pass that asks autograd to keep the graph's saved tensors.
  Finder->addMatcher(
      callExpr(callee(functionDecl(isBackwardPass())), retainsGraph())
          .bind("call"),
      this);
}

void RetainGraphInLoopCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  ASTContext &Ctx = *Result.Context;
  // A template the unit instantiates is judged in its instantiations.
  if (analysis::inInstantiatedTemplate(Call, Ctx))
    return;
  const Stmt *Loop = analysis::innermostLoop(Call, Ctx);
  if (!Loop || createsGradientGraph(Call, Ctx) ||
      laterBackwardNeedsGraph(Call, Loop, Ctx) ||
      analysis::walksGraphBuiltBefore(Call, Loop, Ctx, *Names))
    return;

  const FunctionDecl *Callee = Call->getDirectCallee();
  unsigned Index = *analysis::parameterIndex(Callee, "retain_graph");
  const Expr *Arg = Call->getArg(Index);
  bool IsGrad = Callee->getName() == "grad";

  {
    auto Diag = diag(Arg->getBeginLoc(),
                     "retain_graph=true in a loop keeps the autograd graph and "
                     "its saved activations alive after %select{backward()|"
                     "autograd::grad()}0, so memory grows every iteration that "
                     "anything (a running total, a hidden state) links the new "
                     "graph to the old one")
                << IsGrad << Arg->getSourceRange();
    // Drop the argument where nothing written after it needs the slot;
    // otherwise say false.
    std::optional<FixItHint> Fix =
        fixits::removeTrailingArgument(Call, Index, Ctx);
    if (!Fix)
      Fix = fixits::replaceExpr(Arg, "false", Ctx);
    if (Fix)
      Diag << *Fix;
  }
  diag(Loop->getBeginLoc(),
       "this loop runs the %select{backward pass|"
       "autograd::grad() call}0 every iteration",
       DiagnosticIDs::Note)
      << IsGrad;
}

} // namespace torch_tidy
