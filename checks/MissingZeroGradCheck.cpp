//===--- MissingZeroGradCheck.cpp - torch-missing-zero-grad ---------------===//

#include "checks/MissingZeroGradCheck.h"

#include "checks/analysis/BackwardPasses.h"
#include "checks/analysis/ExprUtils.h"
#include "checks/analysis/GradientZeroing.h"
#include "checks/analysis/LoopScope.h"
#include "checks/analysis/TensorSources.h"
#include "checks/analysis/TorchTypes.h"
#include "checks/analysis/TrainingSteps.h"
#include "checks/analysis/Walk.h"
#include "fixits/Edits.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torch_tidy {

namespace {
/// `optimizer.step()` on a torch::optim::Optimizer.
AST_MATCHER(CXXMemberCallExpr, isOptimizerStep) {
  return analysis::isOptimizerStep(&Node);
}

/// `step(closure)`: the optimizer evaluates the closure, which computes
/// the loss and its gradients, once or more per step (LBFGS).
bool isGivenClosure(const CXXMemberCallExpr *Step) {
  if (Step->getNumArgs() == 0 || isa<CXXDefaultArgExpr>(Step->getArg(0)))
    return false;
  const Expr *Arg = analysis::stripWrappers(Step->getArg(0));
  return !isa<CXXNullPtrLiteralExpr>(Arg);
}

/// The lambda that \p Step is given as its closure: written in the call,
/// or held by a local variable initialised with it; null for any other.
const LambdaExpr *closureOf(const CXXMemberCallExpr *Step) {
  return analysis::lambdaHeldBy(Step->getArg(0));
}

/// The statement of \p Block that contains \p S.
const Stmt *statementIn(const CompoundStmt *Block, const Stmt *S, ASTContext &Ctx) {
  DynTypedNode Node = DynTypedNode::create(*S);
  for (unsigned Depth = 0; Depth < 128; ++Depth) {
    auto Parents = Ctx.getParents(Node);
    if (Parents.empty())
      return nullptr;
    if (Parents[0].get<CompoundStmt>() == Block)
      return Node.get<Stmt>();
    Node = Parents[0];
  }
  return nullptr;
}

/// Whether statement \p S of a block writes \p D: declares it, assigns it.
bool defines(const Stmt *S, const ValueDecl *D) {
  if (const auto *E = dyn_cast<Expr>(S))
    S = analysis::stripWrappers(E);
  return analysis::definitionAt(S, D).has_value();
}

/// The variables \p E refers to.
class Refs : public analysis::StmtWalk {
public:
  llvm::SmallVector<const ValueDecl *, 4> Decls;
  bool visit(Stmt *S) override {
    if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
      Decls.push_back(Ref->getDecl());
    return true;
  }
};

/// The object of \p Step as written, with its `.` or `->`
/// (`optimizer.`, `this->optimizer_->`); empty for an implicit `this`.
std::optional<std::string> receiverText(const CXXMemberCallExpr *Step,
                                        const ASTContext &Ctx) {
  const auto *Callee = dyn_cast<MemberExpr>(Step->getCallee()->IgnoreParens());
  if (!Callee)
    return std::nullopt;
  if (Callee->isImplicitAccess())
    return std::string();
  SourceRange Range(Step->getBeginLoc(), Callee->getMemberLoc());
  if (Range.getBegin().isMacroID() || Range.getEnd().isMacroID())
    return std::nullopt;
  llvm::StringRef Text = Lexer::getSourceText(
      CharSourceRange::getCharRange(Range), Ctx.getSourceManager(),
      Ctx.getLangOpts());
  if (Text.empty())
    return std::nullopt;
  return Text.str();
}

/// The backward pass that adds what \p Step applies: of those in \p Loop
/// that reach it, the last written.
const CallExpr *backwardBefore(const CallExpr *Step, const Stmt *Loop,
                               const analysis::FunctionFlow &Flow,
                               const SourceManager &SM) {
  auto Nearest = Flow.nearestBefore(Step, [&](const Stmt *S) {
    const auto *Call = dyn_cast<CallExpr>(S);
    return Call && analysis::accumulatesGradients(Call) &&
           analysis::contains(Loop, Call);
  });
  const CallExpr *Backward = nullptr;
  for (const Stmt *Found : Nearest.Found)
    if (!Backward ||
        SM.isBeforeInTranslationUnit(Backward->getBeginLoc(), Found->getBeginLoc()))
      Backward = cast<CallExpr>(Found);
  return Backward;
}

/// Where this update of the iteration starts, in the block \p Body of the
/// loop: the first statement, after any earlier backward pass or step of
/// the iteration, that computes what \p Backward walks (the forward pass);
/// else the statement of the backward pass. Null when the backward pass is
/// not in the block.
const Stmt *updateStart(const CompoundStmt *Body, const CallExpr *Backward,
                        const FunctionDecl *Function, ASTContext &Ctx) {
  const Stmt *BackwardStmt = statementIn(Body, Backward, Ctx);
  if (!BackwardStmt)
    return nullptr;
  const auto *It = llvm::find(Body->body(), BackwardStmt);
  const auto *Start = Body->body_begin();
  for (const auto *S = Body->body_begin(); S != It; ++S)
    if (analysis::trainsIn(*S))
      Start = S + 1;
  analysis::TensorSources Sources(Function->getBody());
  analysis::DeclSet From = Sources.sourcesOf(analysis::backwardRoots(Backward));
  for (const auto *S = Start; S != It; ++S)
    if (llvm::any_of(From, [&](const ValueDecl *D) { return defines(*S, D); }))
      return *S;
  return BackwardStmt;
}
} // namespace

void MissingZeroGradCheck::onStartOfTranslationUnit() {
  Flows.clear();
  Reported.clear();
}

const analysis::FunctionFlow &
MissingZeroGradCheck::flowOf(const FunctionDecl *Function, ASTContext &Ctx) {
  auto &Flow = Flows[Function];
  if (!Flow)
    Flow = std::make_unique<analysis::FunctionFlow>(Function, Ctx);
  return *Flow;
}

void MissingZeroGradCheck::registerMatchers(MatchFinder *Finder) {
  // An optimizer step that applies the gradients the parameters hold, or
  // one that evaluates a closure that runs the backward pass.
  Finder->addMatcher(cxxMemberCallExpr(isOptimizerStep()).bind("step"), this);
}

void MissingZeroGradCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Step = Result.Nodes.getNodeAs<CXXMemberCallExpr>("step");
  ASTContext &Ctx = *Result.Context;
  const FunctionDecl *Function = analysis::enclosingFunction(Step, Ctx);
  const Stmt *Loop = analysis::innermostLoop(Step, Ctx);
  if (!Function || !Loop || analysis::enclosingFunction(Loop, Ctx) != Function)
    return;
  // A template the unit instantiates is judged in its instantiations, where
  // every call is known.
  if (analysis::inInstantiatedTemplate(Step, Ctx))
    return;
  const analysis::FunctionFlow &Flow = flowOf(Function, Ctx);
  analysis::GradientZeroing Zeroing(Step, Function, Ctx);
  // A closure the step evaluates: its backward pass adds to what the
  // iteration left, unless the closure clears (as it must for an
  // optimizer that evaluates it more than once) or the loop does.
  const LambdaExpr *Closure = nullptr;
  const CallExpr *InClosure = nullptr;
  if (isGivenClosure(Step)) {
    Closure = closureOf(Step);
    if (Closure) {
      auto Backwards = analysis::backwardPassesIn(Closure->getBody());
      const auto *First =
          llvm::find_if(Backwards, analysis::accumulatesGradients);
      InClosure = First != Backwards.end() ? *First : nullptr;
    }
    if (!InClosure || Zeroing.clearsIn(Closure->getBody()))
      return;
  }
  if (!Zeroing.stepReachedUncleared(Flow))
    return;
  // A step under a condition of its own, in a loop that clears under one
  // too: a window the author keeps (clear every k steps, step every k).
  if (!analysis::runsEveryIteration(Step, Loop, Ctx) &&
      Zeroing.clearsIn(analysis::loopBody(Loop)))
    return;
  const SourceManager &SM = Ctx.getSourceManager();
  const CallExpr *Backward =
      InClosure ? InClosure : backwardBefore(Step, Loop, Flow, SM);
  if (!Backward || !Reported.insert(Backward).second)
    return;

  std::optional<std::string> Receiver = receiverText(Step, Ctx);
  // The optimizer as written: the receiver without its `.` or `->`.
  std::string Name;
  if (Receiver) {
    llvm::StringRef Written = llvm::StringRef(*Receiver).rtrim();
    Written.consume_back("->") || Written.consume_back(".");
    Name = Written.rtrim().str();
  }
  const ValueDecl *Declared = Zeroing.optimizer().leaf();
  if (Name.empty() && Declared)
    Name = Declared->getNameAsString();
  {
    auto Diag = diag(Backward->getBeginLoc(),
                     "this backward pass adds its gradients to those of every "
                     "earlier iteration: nothing zeroes the gradients of '%0' "
                     "between two of its steps, so each step applies the sum "
                     "of all past gradients")
                << Name << Backward->getSourceRange();
    // `optimizer.zero_grad();` where this update of the iteration starts,
    // where each variable the optimizer's expression names is declared; in
    // a closure, first in its body, where a closure that captures by
    // reference sees it.
    const auto *Body = dyn_cast<CompoundStmt>(analysis::loopBody(Loop));
    const Stmt *Before = Body ? updateStart(Body, Backward, Function, Ctx) : nullptr;
    if (Closure) {
      const CompoundStmt *ClosureBody = Closure->getCompoundStmtBody();
      Before = Closure->getCaptureDefault() == LCD_ByRef &&
                       !ClosureBody->body_empty()
                   ? ClosureBody->body_front()
                   : nullptr;
    }
    if (Receiver && Before) {
      Refs Used;
      Used.walk(Step->getImplicitObjectArgument());
      bool InScope = llvm::all_of(Used.Decls, [&](const ValueDecl *D) {
        return SM.isBeforeInTranslationUnit(D->getLocation(), Before->getBeginLoc());
      });
      if (InScope)
        if (auto Fix = fixits::insertLineBefore(Before, *Receiver + "zero_grad();", Ctx))
          Diag << *Fix;
    }
  }
  // Where the step is written (in a macro, where the macro is used).
  diag(SM.getExpansionLoc(Step->getBeginLoc()),
       "'%0' steps here with the gradients of every earlier backward pass "
       "still added in",
       DiagnosticIDs::Note)
      << Name;
  if (Declared)
    diag(Declared->getLocation(), "'%0' is declared here", DiagnosticIDs::Note)
        << Declared->getName();
}

} // namespace torch_tidy
