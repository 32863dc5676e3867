//===--- UnscaledGradAccumulationCheck.cpp - torch-unscaled-grad-accumulation ===//

#include "checks/UnscaledGradAccumulationCheck.h"

#include "checks/analysis/BackwardPasses.h"
#include "checks/analysis/ExprUtils.h"
#include "checks/analysis/FunctionFlow.h"
#include "checks/analysis/GradientZeroing.h"
#include "checks/analysis/LoopScope.h"
#include "checks/analysis/StepWindow.h"
#include "checks/analysis/TorchTypes.h"
#include "checks/analysis/TrainingSteps.h"
#include "checks/analysis/Walk.h"
#include "fixits/Edits.h"
#include "clang/AST/ExprCXX.h"
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

/// The backward passes of a loop's body that add into the gradients.
class BackwardsIn : public analysis::StmtWalk {
public:
  llvm::SmallVector<const CallExpr *, 2> Found;
  bool enter(Stmt *S) override { return !isa<LambdaExpr>(S); }
  bool visit(Stmt *S) override {
    const auto *Call = dyn_cast<CallExpr>(S);
    if (Call && analysis::accumulatesGradients(Call))
      Found.push_back(Call);
    return true;
  }
};

std::optional<std::string> textOf(SourceRange Range, const ASTContext &Ctx) {
  if (Range.isInvalid() || fixits::isInMacro(Range))
    return std::nullopt;
  llvm::StringRef Text = Lexer::getSourceText(CharSourceRange::getTokenRange(Range),
                                              Ctx.getSourceManager(),
                                              Ctx.getLangOpts());
  if (Text.empty())
    return std::nullopt;
  return Text.str();
}

/// Whether \p E is written as a primary or postfix expression (a name, a
/// literal, a call, a member, something in parentheses).
bool isPostfix(const Expr *E) {
  E = E->IgnoreImplicit();
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E))
    return Op->getOperator() == OO_Subscript || Op->getOperator() == OO_Call ||
           Op->getOperator() == OO_Arrow;
  return isa<DeclRefExpr, MemberExpr, CallExpr, ParenExpr, IntegerLiteral,
             FloatingLiteral, ArraySubscriptExpr>(E);
}

/// N as the divisor of a tensor: as written, in parentheses where it is
/// not a postfix expression, converted to double where c10::Scalar has no
/// constructor of its type (an unsigned or narrow integer).
std::string divisorText(const Expr *N, llvm::StringRef Written) {
  std::string Text = isPostfix(N) ? Written.str() : "(" + Written.str() + ")";
  QualType T = N->IgnoreParenImpCasts()->getType().getCanonicalType();
  const auto *Builtin = T->getAs<BuiltinType>();
  bool Converts = Builtin && (Builtin->isFloatingPoint() ||
                              Builtin->getKind() == BuiltinType::Int ||
                              Builtin->getKind() == BuiltinType::Long ||
                              Builtin->getKind() == BuiltinType::LongLong);
  if (Converts || isa<IntegerLiteral>(N->IgnoreParenImpCasts()))
    return Text;
  return "static_cast<double>(" + Written.str() + ")";
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
} // namespace

void UnscaledGradAccumulationCheck::registerMatchers(MatchFinder *Finder) {
  // An optimizer step under a condition: the step of an accumulation
  // window when the condition lets it run once every N iterations.
  Finder->addMatcher(
      cxxMemberCallExpr(isOptimizerStep(), hasAncestor(ifStmt())).bind("step"),
      this);
}

void UnscaledGradAccumulationCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Step = Result.Nodes.getNodeAs<CXXMemberCallExpr>("step");
  ASTContext &Ctx = *Result.Context;
  const FunctionDecl *Function = analysis::enclosingFunction(Step, Ctx);
  const Stmt *Loop = analysis::innermostLoop(Step, Ctx);
  if (!Function || !Loop || analysis::enclosingFunction(Loop, Ctx) != Function)
    return;
  std::optional<analysis::StepWindow> Window = analysis::stepWindowOf(Step, Loop, Ctx);
  if (!Window || analysis::learningRateScaledBy(Step, Window->Every, Ctx))
    return;
  const SourceManager &SM = Ctx.getSourceManager();
  std::optional<std::string> N = textOf(Window->Every->getSourceRange(), Ctx);
  std::string Every = N ? *N : "N";
  std::optional<std::string> Optimizer =
      textOf(Step->getImplicitObjectArgument()->getSourceRange(), Ctx);

  BackwardsIn Backwards;
  Backwards.walk(analysis::loopBody(Loop));
  // The backward passes whose gradients the step applies: nothing clears
  // the optimizer's gradients between them and the step (another model's
  // update, every iteration, in a loop whose optimizer steps every N).
  analysis::FunctionFlow Flow(Function, Ctx);
  analysis::GradientZeroing Zeroing(Step, Function, Ctx);
  auto Reaching = Flow.nearestBefore(Step, [&](const Stmt *S) {
    return llvm::is_contained(Backwards.Found, S) || Zeroing.clears(S);
  });
  for (const CallExpr *Backward : Backwards.Found) {
    // Run every iteration, outside the window, added into what it applies.
    if (analysis::innermostLoop(Backward, Ctx) != Loop ||
        !analysis::runsEveryIteration(Backward, Loop, Ctx) ||
        analysis::contains(Window->If, Backward) ||
        !llvm::is_contained(Reaching.Found, Backward) ||
        analysis::scaledBy(Backward, Window->Every, Loop, Function->getBody(), Ctx) ||
        !Reported.insert(Backward).second)
      continue;
    {
      auto Diag = diag(Backward->getBeginLoc(),
                       "the loss is backpropagated every iteration while '%0' "
                       "steps only once every %1 iterations, and it is not "
                       "divided by %1, so each update is %1 times larger than "
                       "intended")
                  << (Optimizer ? *Optimizer : std::string("the optimizer"))
                  << Every << Backward->getSourceRange();
      // (loss / N).backward(): N as the condition writes it, where each of
      // the variables it names is declared before the backward pass.
      const auto *Member = dyn_cast<CXXMemberCallExpr>(Backward);
      const Expr *Roots = Member ? Member->getImplicitObjectArgument() : nullptr;
      Refs Used;
      Used.walk(Window->Every);
      bool InScope = llvm::all_of(Used.Decls, [&](const ValueDecl *D) {
        return SM.isBeforeInTranslationUnit(D->getLocation(), Backward->getBeginLoc());
      });
      std::optional<std::string> Loss =
          Roots ? textOf(Roots->getSourceRange(), Ctx) : std::nullopt;
      if (N && Loss && InScope)
        if (auto Fix = fixits::replaceExpr(
                Roots, "(" + *Loss + " / " + divisorText(Window->Every, *N) + ")",
                Ctx))
          Diag << *Fix;
    }
    diag(SM.getExpansionLoc(Step->getBeginLoc()), "'%0' steps here, once every %1 iterations",
         DiagnosticIDs::Note)
        << (Optimizer ? *Optimizer : std::string("the optimizer")) << Every;
    diag(SM.getExpansionLoc(Loop->getBeginLoc()), "this loop runs the backward pass every iteration",
         DiagnosticIDs::Note);
  }
}

} // namespace torch_tidy
