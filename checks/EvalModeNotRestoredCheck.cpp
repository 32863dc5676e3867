//===--- EvalModeNotRestoredCheck.cpp - torch-eval-mode-not-restored ------===//

#include "checks/EvalModeNotRestoredCheck.h"

#include "checks/analysis/ExprUtils.h"
#include "checks/analysis/LoopScope.h"
#include "checks/analysis/TorchTypes.h"
#include "fixits/Edits.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"

#include <tuple>

using namespace clang;
using namespace clang::ast_matchers;

namespace torch_tidy {

namespace {
/// A function whose definition, with its body, is in the unit (declared
/// before it is defined, or out of line, included).
AST_MATCHER(FunctionDecl, hasDefinitionInView) {
  const FunctionDecl *Def = Node.getDefinition();
  return Def && Def->hasBody();
}

/// The statement of the innermost block around \p E, and that block.
std::pair<const Stmt *, const CompoundStmt *> statementOf(const Stmt *E,
                                                          ASTContext &Ctx) {
  DynTypedNode Node = DynTypedNode::create(*E);
  for (unsigned Depth = 0; Depth < 64; ++Depth) {
    auto Parents = Ctx.getParents(Node);
    if (Parents.empty() || Parents[0].get<FunctionDecl>() ||
        Parents[0].get<LambdaExpr>())
      return {};
    if (const auto *Block = Parents[0].get<CompoundStmt>())
      return {Node.get<Stmt>(), Block};
    Node = Parents[0];
  }
  return {};
}

/// How a member of an object of type \p T is reached: `->` through a
/// pointer, a ModuleHolder or a smart pointer, `.` otherwise.
const char *accessorFor(QualType T) {
  T = T.getNonReferenceType();
  if (T->isPointerType())
    return "->";
  const CXXRecordDecl *RD = analysis::recordOf(T);
  if (!RD || !RD->hasDefinition())
    return ".";
  if (analysis::isSmartPointer(RD) ||
      analysis::derivesFrom(RD, "torch::nn::ModuleHolder"))
    return "->";
  return ".";
}

/// \p Module written out, with the accessor its `train()` call needs
/// (`model->`, `net_->`, `trainer.model->`); none when a part of it has no
/// type to say.
std::optional<std::string> spelled(const analysis::ObjectPath &Module) {
  if (!Module.Known || !Module.leaf())
    return std::nullopt;
  std::string Text;
  for (const ValueDecl *D : Module.Decls) {
    if (!D) // `this`: its members are named as they are
      continue;
    Text += D->getNameAsString();
    Text += accessorFor(D->getType());
  }
  return Text;
}

/// The object of \p Call as written, with its `.` or `->`.
std::optional<std::string> receiverText(const CallExpr *Call, const ASTContext &Ctx) {
  const auto *Member = dyn_cast<CXXMemberCallExpr>(Call);
  const auto *Callee =
      Member ? dyn_cast<MemberExpr>(Member->getCallee()->IgnoreParens()) : nullptr;
  if (!Callee || Callee->isImplicitAccess())
    return std::nullopt;
  SourceRange Range(Call->getBeginLoc(), Callee->getMemberLoc());
  if (Range.getBegin().isMacroID() || Range.getEnd().isMacroID())
    return std::nullopt;
  llvm::StringRef Text = Lexer::getSourceText(CharSourceRange::getCharRange(Range),
                                              Ctx.getSourceManager(),
                                              Ctx.getLangOpts());
  if (Text.empty())
    return std::nullopt;
  return Text.str();
}
/// The function \p Call runs, as written (`validate`, `trainer.evaluate`,
/// the variable that holds a lambda).
std::string calleeText(const CallExpr *Call, const ASTContext &Ctx) {
  const Expr *Callee = Call->getCallee();
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call))
    Callee = Op->getArg(0);
  SourceRange Range = Callee->getSourceRange();
  if (!Range.getBegin().isMacroID() && !Range.getEnd().isMacroID()) {
    llvm::StringRef Text = Lexer::getSourceText(
        CharSourceRange::getTokenRange(Range), Ctx.getSourceManager(),
        Ctx.getLangOpts());
    if (!Text.empty())
      return Text.str();
  }
  const auto *FD = Call->getDirectCallee();
  return FD ? FD->getNameAsString() : "the call";
}

/// \p Line (`model->train();`) after the evaluation that \p Eval starts in
/// \p Loop: before the next statement of its block that runs one of
/// \p Steps or jumps, else at the block's end; for an evaluation in a loop
/// of its own nested in the training loop, after that loop. An eval()
/// (\p Direct) needs evaluation after it in its block.
std::optional<FixItHint> trainAfterEvaluation(const CallExpr *Eval, const Stmt *Loop,
                                              llvm::ArrayRef<const Stmt *> Steps,
                                              llvm::StringRef Line, bool Direct,
                                              ASTContext &Ctx) {
  auto [EvalStmt, Block] = statementOf(Eval, Ctx);
  bool Nested = false;
  while (EvalStmt && Block && Block != analysis::loopBody(Loop) &&
         analysis::innermostLoop(Block, Ctx) != Loop) {
    const Stmt *Inner = analysis::innermostLoop(Block, Ctx);
    if (!Inner || !analysis::contains(Loop, Inner))
      break;
    std::tie(EvalStmt, Block) = statementOf(Inner, Ctx);
    Nested = true;
  }
  if (!EvalStmt || !Block || !analysis::contains(Loop, Block))
    return std::nullopt;
  const auto *It = llvm::find(Block->body(), EvalStmt);
  const Stmt *Before = nullptr;
  unsigned Between = 0;
  for (++It; It != Block->body_end(); ++It, ++Between)
    if (isa<ContinueStmt, BreakStmt, ReturnStmt>(*It) ||
        llvm::any_of(Steps,
                     [&](const Stmt *Step) { return analysis::contains(*It, Step); })) {
      Before = *It;
      break;
    }
  if (Direct && !Nested && Between == 0)
    return std::nullopt;
  return Before ? fixits::insertLineBefore(Before, Line, Ctx)
                : fixits::insertAtEnd(Block, Line, Ctx);
}
} // namespace

void EvalModeNotRestoredCheck::onStartOfTranslationUnit() {
  Effects.reset();
  EffectsCtx = nullptr;
}

analysis::ModeEffects &EvalModeNotRestoredCheck::effectsOf(ASTContext &Ctx) {
  if (!Effects || EffectsCtx != &Ctx) {
    Effects = std::make_unique<analysis::ModeEffects>(Ctx);
    EffectsCtx = &Ctx;
  }
  return *Effects;
}

void EvalModeNotRestoredCheck::registerMatchers(MatchFinder *Finder) {
  // A module's eval() / train(false), or a call of a function whose body
  // is in view (it may leave a module in evaluation mode).
  Finder->addMatcher(
      callExpr(anyOf(cxxMemberCallExpr(callee(cxxMethodDecl(hasAnyName("eval", "train")))),
                     callee(functionDecl(hasDefinitionInView()))))
          .bind("call"),
      this);
}

void EvalModeNotRestoredCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  ASTContext &Ctx = *Result.Context;
  const FunctionDecl *Function = analysis::enclosingFunction(Call, Ctx);
  if (!Function || !analysis::innermostLoop(Call, Ctx))
    return;
  analysis::ModeEffects &Modes = effectsOf(Ctx);
  const SourceManager &SM = Ctx.getSourceManager();
  for (const analysis::ObjectPath &Module : Modes.leftInEval(Call)) {
    // The training loop around the call: the innermost one, in the same
    // function, that runs a training step of the module.
    const Stmt *Loop = analysis::innermostLoop(Call, Ctx);
    llvm::SmallVector<const Stmt *, 4> Steps;
    for (; Loop && analysis::enclosingFunction(Loop, Ctx) == Function;
         Loop = analysis::innermostLoop(Loop, Ctx)) {
      Steps = analysis::trainingStepsOf(Module, Loop, Ctx);
      if (!Steps.empty())
        break;
    }
    if (Steps.empty() || !Loop ||
        analysis::enclosingFunction(Loop, Ctx) != Function)
      continue;
    // Frozen on purpose: its parameters stop training in the function.
    if (analysis::freezesParameters(Function->getBody(), Module, Ctx))
      continue;
    auto Reached = analysis::stepsReachedInEvalMode(
        Call, Module, Steps, Modes.flowOf(Function), Modes);
    if (Reached.empty())
      continue;
    // Set back to training on every iteration but the last, after which no
    // step runs.
    if (analysis::restoredUnlessLastIteration(Call, Module, Loop, Modes, Ctx))
      continue;
    // Set on purpose for the training of each iteration: run every
    // iteration, before each step it reaches (a submodule frozen while the
    // rest trains).
    if (analysis::runsEveryIteration(Call, Loop, Ctx) &&
        llvm::all_of(Reached, [&](const Stmt *Step) {
          return SM.isBeforeInTranslationUnit(Call->getEndLoc(), Step->getBeginLoc());
        }))
      continue;
    bool Direct = analysis::modeSetBy(Call, Ctx) == analysis::ModuleMode::Eval;
    std::optional<std::string> Written =
        Direct ? receiverText(Call, Ctx) : spelled(Module);
    std::string Name = Module.leaf()->getNameAsString();
    if (Written) {
      llvm::StringRef Trimmed = llvm::StringRef(*Written).rtrim();
      Trimmed.consume_back("->") || Trimmed.consume_back(".");
      Name = Trimmed.rtrim().str();
    }
    {
      auto Diag =
          Direct ? diag(Call->getBeginLoc(),
                        "'%0' is put in evaluation mode inside the training loop "
                        "and nothing sets it back to training before the next "
                        "training step, so its dropout and batch-norm layers "
                        "stay in evaluation mode for the rest of training")
                       << Name
                 : diag(Call->getBeginLoc(),
                        "'%1' leaves '%0' in evaluation mode inside the training "
                        "loop and nothing sets it back to training before the "
                        "next training step, so its dropout and batch-norm layers "
                        "stay in evaluation mode for the rest of training")
                       << Name
                       << calleeText(Call, Ctx);
      Diag << Call->getSourceRange();
      if (Written)
        if (auto Fix = trainAfterEvaluation(Call, Loop, Steps, *Written + "train();",
                                            Direct, Ctx))
          Diag << *Fix;
    }
    diag(SM.getExpansionLoc(Reached.front()->getBeginLoc()),
         "the next training step runs here with '%0' still in evaluation mode",
         DiagnosticIDs::Note)
        << Name;
    diag(Module.leaf()->getLocation(), "'%0' is declared here", DiagnosticIDs::Note)
        << Module.leaf()->getName();
    return; // one finding per call
  }
}

} // namespace torch_tidy
