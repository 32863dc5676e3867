//===--- AnalysisDump.cpp - print what the shared analyses answer ---------===//
//
// For the analysis tests: at every call `probe(...)` in the input it prints
//   LINE:COL: grad=<recording|not-recording|unknown> loop=<LINE|none>
// for `probe_sources(expr)`, the sorted tensor sources of expr:
//   LINE:COL: sources=a,b,c
// for `probe_history(expr)`, H:  LINE:COL: history=<yes|no|unknown>
// for `probe_grad_leaf(target)`, whether an in-place write into target
//   changes a leaf that requires gradients: LINE:COL: grad-leaf=<yes|no>
// for `probe_outlives(target[, stored])`, O, with the probe as the write:
//   LINE:COL: outlives=<no|loop|call>[ bounded]
// for `probe_new_slot(container, key)`, whether a write of container[key]
//   there writes a new element each time it runs, and the loop in which the
//   key changes: LINE:COL: new-slot=<yes[ loop-line=N]|no|not-outliving>
// for `probe_carried(target)`, whether this read of a target that outlives
// the iteration sees its value from before the iteration (or call) with
// history: LINE:COL: carried=<yes|no|not-outliving>
// for `probe_eval(forward)`, the eval() that makes it evaluation code:
// LINE:COL: eval=<LINE|none>
// for `probe_differentiated(expr)`, D: LINE:COL: differentiated=<yes|no>
// for `probe_discarded(var)`, whether the history of the local variable's
//   initializer is thrown away in its function: LINE:COL: discarded=<yes|no>
// and the probes of the training-loop analyses (TrainingProbes.cpp) and of
// the shared walk (WalkProbes.cpp).
//
//===----------------------------------------------------------------------===//

#include "checks/analysis/CarriedState.h"
#include "checks/analysis/Differentiated.h"
#include "checks/analysis/ExprUtils.h"
#include "checks/analysis/GradGuard.h"
#include "checks/analysis/History.h"
#include "checks/analysis/LoopScope.h"
#include "checks/analysis/ModuleMode.h"
#include "checks/analysis/Outlives.h"
#include "checks/analysis/SummaryData.h"
#include "checks/analysis/TensorSources.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Tooling/CommonOptionsParser.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/CommandLine.h"

#include <algorithm>

using namespace clang;
using namespace clang::ast_matchers;
using namespace torch_tidy::analysis;
using torch_tidy::analysis::stripWrappers;

// TrainingProbes.cpp
llvm::ArrayRef<llvm::StringRef> trainingProbeNames();
bool printTrainingProbe(llvm::StringRef Probe, const clang::CallExpr *Call,
                        clang::ASTContext &Ctx, llvm::raw_ostream &OS);
// WalkProbes.cpp
llvm::ArrayRef<llvm::StringRef> walkProbeNames();
bool printWalkProbe(llvm::StringRef Probe, const clang::CallExpr *Call,
                    clang::ASTContext &Ctx, llvm::raw_ostream &OS);

static llvm::cl::OptionCategory Category("torch-tidy-analysis-dump");
static llvm::cl::opt<std::string>
    SummariesFile("summaries",
                  llvm::cl::desc("function summaries for H (FunctionSummaries)"),
                  llvm::cl::cat(Category));

namespace {
class Printer : public MatchFinder::MatchCallback {
  std::unique_ptr<CallSites> Callers;
  std::unique_ptr<HistoryAnalysis> History;

  /// Makes the call sites and H of \p Ctx, once per translation unit.
  void analysesFor(ASTContext &Ctx) {
    if (Callers && History && &History->context() == &Ctx)
      return;
    Callers = std::make_unique<CallSites>(Ctx);
    HistoryOptions Options;
    if (!SummariesFile.empty()) {
      std::string Error;
      Options.Summaries = loadSummaries(SummariesFile, Error);
      if (!Options.Summaries)
        llvm::errs() << Error << "\n";
    }
    History = std::make_unique<HistoryAnalysis>(Ctx, Callers.get(), Options);
  }

public:
  void run(const MatchFinder::MatchResult &Result) override {
    const auto *Call = Result.Nodes.getNodeAs<CallExpr>("probe");
    ASTContext &Ctx = *Result.Context;
    const SourceManager &SM = Ctx.getSourceManager();
    SourceLocation Loc = SM.getExpansionLoc(Call->getBeginLoc());
    llvm::outs() << SM.getExpansionLineNumber(Loc) << ":"
                 << SM.getExpansionColumnNumber(Loc) << ": ";
    llvm::StringRef Probe = Call->getDirectCallee()->getName();
    if (printTrainingProbe(Probe, Call, Ctx, llvm::outs()) ||
        printWalkProbe(Probe, Call, Ctx, llvm::outs()))
      return;
    if (Probe == "probe_history") {
      analysesFor(Ctx);
      llvm::outs() << "history=" << History->history(Call->getArg(0)).name()
                   << "\n";
      return;
    }
    if (Probe == "probe_grad_leaf") {
      analysesFor(Ctx);
      llvm::outs() << "grad-leaf="
                   << (History->writesIntoGradLeaf(Call->getArg(0)) ? "yes" : "no")
                   << "\n";
      return;
    }
    if (Probe == "probe_outlives") {
      auto Life = outlivesIteration(Call->getArg(0), Call, Ctx);
      analysesFor(Ctx);
      llvm::outs() << "outlives=";
      if (!Life)
        llvm::outs() << "no";
      else
        llvm::outs() << (Life->Kind == Lifetime::Loop ? "loop" : "call")
                     << (isBoundedOnPurpose(*Life, Call, Ctx, *History) ? " bounded" : "");
      llvm::outs() << "\n";
      return;
    }
    if (Probe == "probe_new_slot") {
      // probe_new_slot(container, key): a write of container[key] here.
      auto Life = outlivesIteration(Call->getArg(0), Call, Ctx);
      llvm::outs() << "new-slot=";
      if (!Life) {
        llvm::outs() << "not-outliving\n";
        return;
      }
      bool New = writesNewSlot(*Life, Call->getArg(1), Ctx);
      llvm::outs() << (New ? "yes" : "no");
      if (New && Life->LoopStmt)
        llvm::outs() << " loop-line="
                     << Ctx.getSourceManager().getPresumedLineNumber(
                            Life->LoopStmt->getBeginLoc());
      llvm::outs() << "\n";
      return;
    }
    if (Probe == "probe_carried" || Probe == "probe_eval" ||
        Probe == "probe_differentiated" || Probe == "probe_discarded") {
      analysesFor(Ctx);
      const Expr *Arg = Call->getArg(0);
      if (Probe == "probe_carried") {
        auto Life = outlivesIteration(Arg, Call, Ctx);
        llvm::outs() << "carried="
                     << (!Life ? "not-outliving"
                               : CarriedState(*History, *Life, referencedDecl(Arg))
                                         .readsCarriedHistory(
                                             stripWrappers(Arg))
                                     ? "yes"
                                     : "no")
                     << "\n";
      } else if (Probe == "probe_eval") {
        const Expr *Forward = stripWrappers(Arg);
        const Stmt *Eval =
            evalModeAt(Forward, Forward, History->flowAt(Forward), Ctx,
                       History->callers(), [&](const FunctionDecl *FD) {
                         return History->flowOf(FD);
                       });
        llvm::outs() << "eval=";
        if (Eval)
          llvm::outs() << SM.getExpansionLineNumber(Eval->getBeginLoc());
        else
          llvm::outs() << "none";
        llvm::outs() << "\n";
      } else if (Probe == "probe_discarded") {
        // Asked of the initializer of the local variable named, with H (and
        // the summaries, when given) as the checks ask it.
        const auto *Var = dyn_cast_or_null<VarDecl>(referencedDecl(Arg));
        const Expr *Init = Var ? Var->getInit() : nullptr;
        llvm::outs() << "discarded="
                     << (Init && historyDiscarded(Init, Ctx, *Callers,
                                                  /*Holders=*/nullptr,
                                                  History.get())
                             ? "yes"
                             : "no")
                     << "\n";
      } else {
        llvm::outs() << "differentiated="
                     << (mayBeDifferentiated(Arg, Ctx, *Callers,
                                             /*OpaqueCallsMay=*/false)
                             ? "yes"
                             : "no")
                     << "\n";
      }
      return;
    }
    if (Probe == "probe_sources") {
      TensorSources Sources(enclosingFunctionBody(Call, Ctx));
      std::vector<std::string> Names;
      for (const ValueDecl *D : Sources.sourcesOf(Call->getArg(0)))
        Names.push_back(D->getNameAsString());
      std::sort(Names.begin(), Names.end());
      llvm::outs() << "sources=" << llvm::join(Names, ",") << "\n";
      return;
    }
    const char *State = "";
    if (!Callers || !History || &History->context() != &Ctx) {
      Callers = std::make_unique<CallSites>(Ctx);
      History = std::make_unique<HistoryAnalysis>(Ctx, Callers.get(),
                                                  HistoryOptions());
    }
    switch (gradStateAt(Call, Ctx, Callers.get(), defaultNameGuesses())) {
    case GradState::Recording:
      State = "recording";
      break;
    case GradState::NotRecording:
      State = "not-recording";
      break;
    case GradState::Unknown:
      State = "unknown";
      break;
    }
    llvm::outs() << "grad=" << State << " loop=";
    if (const Stmt *Loop = innermostLoop(Call, Ctx))
      llvm::outs() << SM.getExpansionLineNumber(Loop->getBeginLoc());
    else
      llvm::outs() << "none";
    llvm::outs() << "\n";
  }
};
} // namespace

int main(int argc, const char **argv) {
  auto Parser = tooling::CommonOptionsParser::create(argc, argv, Category);
  if (!Parser) {
    llvm::errs() << llvm::toString(Parser.takeError());
    return 2;
  }
  tooling::ClangTool Tool(Parser->getCompilations(), Parser->getSourcePathList());
  Tool.appendArgumentsAdjuster(tooling::getInsertArgumentAdjuster(
      "-resource-dir=" CLANG_RESOURCE_DIR_FOR_TESTS,
      tooling::ArgumentInsertPosition::BEGIN));
  Printer Print;
  MatchFinder Finder;
  Finder.addMatcher(
      callExpr(
          callee(functionDecl(hasAnyName(
              "probe", "probe_sources", "probe_history", "probe_grad_leaf",
              "probe_outlives", "probe_new_slot", "probe_carried", "probe_eval",
              "probe_differentiated", "probe_discarded"))))
          .bind("probe"),
      &Print);
  Finder.addMatcher(
      callExpr(callee(functionDecl(hasAnyName(trainingProbeNames())))).bind("probe"),
                    &Print);
  Finder.addMatcher(
      callExpr(callee(functionDecl(hasAnyName(walkProbeNames())))).bind("probe"),
      &Print);
  return Tool.run(tooling::newFrontendActionFactory(&Finder).get());
}
