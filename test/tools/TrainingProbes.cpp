//===--- TrainingProbes.cpp - the training-loop analyses, for their tests -===//
//
// The probes of the analyses behind the training-loop checks (object paths,
// optimizers, gradient zeroing, accumulation windows, module modes). A probe
// with an argument asks about the argument; one without (`probe_left_eval();`)
// about the statement just before it in its block. Each prints one line:
//   probe_path(e)               path=<a.b|this.net|?>
//   probe_optimized(opt)        modules=<model,...|unknown>
//   probe_zeroed(opt.step())    zeroed=<yes|no step-line=N>
//   probe_trains(f(...))        trains=<yes|no>
//   probe_every_iteration(e)    every-iteration=<yes|no>   (its innermost loop)
//   probe_window(opt.step())    window=<N as written|none>
//   probe_scaled()              scaled=<yes|no>   (the backward pass before
//                               it, by the window of its loop's step)
//   probe_left_eval()           eval-left=<paths|none>
//   probe_frozen(module)        frozen=<yes|no>   (in the probe's function)
//   probe_frozen_here(module)   frozen-here=<yes|no>   (where the probe runs)
//   probe_eval_reaches()        reaches=<LINE,...|none>   (training steps of
//                               the first module left in evaluation mode, in
//                               the innermost loop around that trains it)
//
//===----------------------------------------------------------------------===//

#include "checks/analysis/BackwardPasses.h"
#include "checks/analysis/ExprUtils.h"
#include "checks/analysis/GradientZeroing.h"
#include "checks/analysis/LoopScope.h"
#include "checks/analysis/ModeRestore.h"
#include "checks/analysis/Optimizers.h"
#include "checks/analysis/StepWindow.h"
#include "checks/analysis/TrainingSteps.h"
#include "checks/analysis/Walk.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;
using namespace torch_tidy::analysis;

llvm::ArrayRef<llvm::StringRef> trainingProbeNames() {
  static const llvm::StringRef Names[] = {
      "probe_path",   "probe_optimized",       "probe_zeroed",
      "probe_trains", "probe_every_iteration", "probe_window",
      "probe_scaled", "probe_left_eval",       "probe_eval_reaches",
      "probe_frozen", "probe_frozen_here"};
  return Names;
}

/// The statement before \p Probe in its block.
static const Stmt *statementBefore(const CallExpr *Probe, ASTContext &Ctx) {
  const auto *Block = nearestAncestor<CompoundStmt>(*Probe, Ctx, 4);
  if (!Block)
    return nullptr;
  const Stmt *Previous = nullptr;
  for (const Stmt *S : Block->body()) {
    if (contains(S, Probe))
      break;
    Previous = S;
  }
  if (const auto *E = dyn_cast_or_null<Expr>(Previous))
    return stripWrappers(E);
  return Previous;
}

static const CallExpr *callIn(const Expr *E) {
  return dyn_cast_or_null<CallExpr>(stripWrappers(E));
}

static unsigned lineOf(const Stmt *S, const ASTContext &Ctx) {
  return Ctx.getSourceManager().getExpansionLineNumber(S->getBeginLoc());
}

/// The innermost loop around \p S whose function is \p S's own.
static const Stmt *loopAround(const Stmt *S, ASTContext &Ctx) {
  const Stmt *Loop = innermostLoop(S, Ctx);
  return Loop && enclosingFunction(Loop, Ctx) == enclosingFunction(S, Ctx)
             ? Loop
             : nullptr;
}

bool printTrainingProbe(llvm::StringRef Probe, const CallExpr *Call,
                        ASTContext &Ctx, llvm::raw_ostream &OS) {
  const Expr *Arg = Call->getNumArgs() > 0 ? Call->getArg(0) : nullptr;
  if (Probe == "probe_path") {
    OS << "path=" << objectPath(Arg).str() << "\n";
  } else if (Probe == "probe_optimized") {
    OptimizedModules Modules = optimizedModules(objectPath(Arg), Ctx);
    OS << "modules=";
    if (!Modules.Known)
      OS << "unknown";
    for (size_t I = 0; Modules.Known && I < Modules.Paths.size(); ++I)
      OS << (I ? "," : "") << Modules.Paths[I].str();
    OS << "\n";
  } else if (Probe == "probe_zeroed") {
    const CallExpr *Step = callIn(Arg);
    const FunctionDecl *Function = enclosingFunction(Call, Ctx);
    FunctionFlow Flow(Function, Ctx);
    GradientZeroing Zeroing(Step, Function, Ctx);
    const Stmt *Uncleared = Zeroing.stepReachedUncleared(Flow);
    OS << "zeroed=";
    if (Uncleared)
      OS << "no step-line=" << lineOf(Uncleared, Ctx);
    else
      OS << "yes";
    OS << "\n";
  } else if (Probe == "probe_frozen") {
    OS << "frozen="
       << (freezesParameters(enclosingFunctionBody(Call, Ctx), objectPath(Arg), Ctx)
               ? "yes"
               : "no")
       << "\n";
  } else if (Probe == "probe_frozen_here") {
    OS << "frozen-here="
       << (parametersFrozenAt(Call, objectPath(Arg), Ctx) ? "yes" : "no")
       << "\n";
  } else if (Probe == "probe_trains") {
    OS << "trains=" << (callTrains(callIn(Arg), Ctx) ? "yes" : "no") << "\n";
  } else if (Probe == "probe_every_iteration") {
    const Stmt *Loop = loopAround(Call, Ctx);
    OS << "every-iteration="
       << (Loop && runsEveryIteration(Arg, Loop, Ctx) ? "yes" : "no") << "\n";
  } else if (Probe == "probe_window" || Probe == "probe_scaled") {
    const CallExpr *Target =
        Probe == "probe_window"
            ? callIn(Arg)
            : dyn_cast_or_null<CallExpr>(statementBefore(Call, Ctx));
    const Stmt *Loop = loopAround(Call, Ctx);
    // The window of the loop's step, for probe_scaled.
    std::optional<StepWindow> Window;
    if (Probe == "probe_window") {
      Window = Loop ? stepWindowOf(Target, Loop, Ctx) : std::nullopt;
      OS << "window=";
      if (Window)
        OS << Lexer::getSourceText(
            CharSourceRange::getTokenRange(Window->Every->getSourceRange()),
            Ctx.getSourceManager(), Ctx.getLangOpts());
      else
        OS << "none";
      OS << "\n";
      return true;
    }
    class Steps : public StmtWalk {
    public:
      const CallExpr *Found = nullptr;
      bool visit(Stmt *S) override {
        const auto *C = dyn_cast<CallExpr>(S);
        if (C && !Found && isOptimizerStep(C))
          Found = C;
        return true;
      }
    } Finder;
    if (Loop)
      Finder.walk(Loop);
    if (Finder.Found)
      Window = stepWindowOf(Finder.Found, Loop, Ctx);
    const FunctionDecl *Function = enclosingFunction(Call, Ctx);
    OS << "scaled="
       << (Window && scaledBy(Target, Window->Every, Loop, Function->getBody(), Ctx)
               ? "yes"
               : "no")
       << "\n";
  } else if (Probe == "probe_left_eval" || Probe == "probe_eval_reaches") {
    const Stmt *Before = statementBefore(Call, Ctx);
    ModeEffects Effects(Ctx);
    auto Left = Before ? Effects.leftInEval(Before)
                       : llvm::SmallVector<ObjectPath, 1>();
    if (Probe == "probe_left_eval") {
      OS << "eval-left=";
      if (Left.empty())
        OS << "none";
      for (size_t I = 0; I < Left.size(); ++I)
        OS << (I ? "," : "") << Left[I].str();
      OS << "\n";
      return true;
    }
    llvm::SmallVector<const Stmt *, 2> Reached;
    if (!Left.empty()) {
      const FunctionDecl *Function = enclosingFunction(Call, Ctx);
      FunctionFlow Flow(Function, Ctx);
      for (const Stmt *Loop = loopAround(Before, Ctx); Loop;
           Loop = loopAround(Loop, Ctx)) {
        auto Steps = trainingStepsOf(Left.front(), Loop, Ctx);
        if (Steps.empty())
          continue;
        Reached = stepsReachedInEvalMode(Before, Left.front(), Steps, Flow, Effects);
        break;
      }
    }
    OS << "reaches=";
    if (Reached.empty())
      OS << "none";
    for (size_t I = 0; I < Reached.size(); ++I)
      OS << (I ? "," : "") << lineOf(Reached[I], Ctx);
    OS << "\n";
  } else {
    return false;
  }
  return true;
}
