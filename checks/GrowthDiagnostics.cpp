//===--- GrowthDiagnostics.cpp - What the growth checks say alike ---------===//

#include "checks/GrowthDiagnostics.h"

#include "checks/analysis/BackwardPasses.h"
#include "checks/analysis/ExprUtils.h"
#include "checks/analysis/LoopScope.h"
#include "checks/analysis/SummaryData.h"
#include "checks/analysis/TensorSources.h"
#include "checks/analysis/TorchTypes.h"
#include "fixits/Edits.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace torch_tidy {

/// Whether a backward pass that frees its graph walks the member written at
/// \p Written, in the iteration (or call) that writes it.
static bool walksMemberAfter(const analysis::HistoryAnalysis::MemberWrite &Written,
                             ASTContext &Ctx) {
  if (!Written.At)
    return false; // in another unit: not known
  const Stmt *Scope = analysis::iterationAround(Written.At, Ctx);
  const Stmt *Body = analysis::enclosingFunctionBody(Written.At, Ctx);
  if (!Scope || !Body)
    return false;
  const SourceManager &SM = Ctx.getSourceManager();
  analysis::TensorSources Sources(Body);
  for (const CallExpr *Backward : analysis::backwardPassesIn(Scope))
    if (!analysis::retainsGraph(Backward, Ctx) &&
        SM.isBeforeInTranslationUnit(Written.At->getEndLoc(),
                                     Backward->getBeginLoc()) &&
        analysis::walksHistoryOf(Backward, Written.Field, Sources, Ctx))
      return true;
  return false;
}

Kept keptBy(llvm::ArrayRef<const Expr *> Values, const analysis::Lifetime &Life,
            const Stmt *Write, analysis::HistoryAnalysis &History) {
  ASTContext &Ctx = History.context();
  if (Values.empty())
    return Kept::Activations;
  // The iteration of the loop that repeats the write (the one around a
  // loop that only hands out pieces of a graph made before it).
  const Stmt *Scope = Life.LoopStmt ? analysis::loopBody(Life.LoopStmt)
                                    : analysis::iterationAround(Write, Ctx);
  const Stmt *Body = analysis::enclosingFunctionBody(Write, Ctx);
  for (const Expr *Value : Values) {
    if (analysis::walkedIn(Scope, Body, Value, Ctx))
      continue;
    // Handed over by a call in a loop: what that iteration does with it.
    const CallExpr *Site = History.callSiteWitness(Value);
    bool WalkedAtSite = false;
    if (Site)
      for (const Expr *Arg : Site->arguments())
        WalkedAtSite |= History.keepsGraph(Arg) &&
                        analysis::walkedIn(analysis::iterationAround(Site, Ctx),
                                 analysis::enclosingFunctionBody(Site, Ctx),
                                 Arg, Ctx);
    // Handed over by a call in another unit: what its summary says.
    if (!Site)
      if (auto Foreign = History.foreignCallWitness(Value))
        WalkedAtSite = Foreign->Summary.Walked;
    // Left in a member by another method: what that method's iteration
    // does with it after the write.
    if (!Site && !WalkedAtSite)
      if (auto Written = History.memberWitness(Value))
        WalkedAtSite = walksMemberAfter(*Written, Ctx);
    if (!WalkedAtSite)
      return Kept::Activations;
  }
  return Kept::GraphNodes;
}

bool detachChangesGradients(const analysis::Lifetime &Life, const Stmt *Write,
                            bool Recurrent, analysis::HistoryAnalysis &History) {
  ASTContext &Ctx = History.context();
  // The function whose loop repeats the write (a lambda's caller, when the
  // write is in a lambda that the loop calls).
  const Stmt *Body = analysis::enclosingFunctionBody(
      Life.LoopStmt ? Life.LoopStmt : Write, Ctx);
  if (!Body)
    return true;
  if (Recurrent) {
    // Detaching the carried state cuts only what earlier iterations'
    // backward passes already freed, unless they keep it on purpose.
    const Stmt *Scope = Life.LoopStmt ? analysis::loopBody(Life.LoopStmt) : Body;
    for (const CallExpr *Backward : analysis::backwardPassesIn(Scope))
      if (analysis::retainsGraph(Backward, Ctx))
        return true;
    return false;
  }
  // What reaches each backward pass, read through the flow of its function
  // (a holder replaced by its detached copy before the loss hands it none;
  // History keeps one flow per function).
  if (Life.Kind == analysis::Lifetime::Loop) {
    analysis::TensorSources Sources(Body);
    for (const CallExpr *Backward : analysis::backwardPassesIn(Body))
      if (analysis::walksHistoryOf(Backward, Life.Target, Sources, Ctx,
                                   History.flowAt(Backward)))
        return true;
    return false;
  }
  // A member, global or reference: any backward pass of the unit.
  for (Decl *D : analysis::userDecls(Ctx)) {
    for (const CallExpr *Backward : analysis::backwardPassesInDecl(D))
      if (const Stmt *Around = analysis::enclosingFunctionBody(Backward, Ctx))
        if (analysis::walksHistoryOf(Backward, Life.Target,
                                     analysis::TensorSources(Around), Ctx,
                                     History.flowAt(Backward)))
          return true;
  }
  return false;
}

NodeOnlyFindings::NodeOnlyFindings(llvm::StringRef Setting) : Setting(Setting) {
  if (Setting == "warning")
    Level = AsWarning;
  else if (Setting == "remark")
    Level = AsRemark;
  else if (Setting == "none")
    Level = Off;
  else
    Valid = false;
}

llvm::SmallVector<FixItHint, 2> detachEach(llvm::ArrayRef<const Expr *> Values,
                                           const ASTContext &Ctx) {
  llvm::SmallVector<FixItHint, 2> Fixes;
  for (const Expr *E : Values) {
    auto Fix = analysis::isTensorType(E->getType())
                   ? fixits::appendDetach(E, Ctx)
                   : std::nullopt;
    if (!Fix)
      return {};
    Fixes.push_back(*Fix);
  }
  return Fixes;
}

void noteLifetime(tidy::ClangTidyCheck &Check, const analysis::Lifetime &Life,
                  const ValueDecl *Shown) {
  if (Shown)
    Check.diag(Shown->getLocation(),
               Life.Kind == analysis::Lifetime::Loop
                   ? "'%0' is declared outside the loop"
               : isa<ParmVarDecl>(Shown)
                   ? "'%0' is the caller's object, passed by reference"
                   : "'%0' outlives each call of the function",
               DiagnosticIDs::Note)
        << Shown->getName();
  else if (Life.Self)
    Check.diag(Life.Self->getLocation(),
               "'*this' is an object of '%0', a container of tensors that "
               "outlives each call of the method",
               DiagnosticIDs::Note)
        << Life.Self->getName();
  if (Life.LoopStmt)
    Check.diag(Life.LoopStmt->getBeginLoc(), "the loop that repeats it",
               DiagnosticIDs::Note);
}

void noteCallSite(tidy::ClangTidyCheck &Check,
                  llvm::ArrayRef<const Expr *> Values,
                  analysis::HistoryAnalysis &History) {
  ASTContext &Ctx = History.context();
  for (const Expr *Value : Values)
    if (const CallExpr *Witness = History.callSiteWitness(Value)) {
      const FunctionDecl *Callee = Witness->getDirectCallee();
      bool InLoop = analysis::innermostLoop(Witness, Ctx) != nullptr;
      Check.diag(Witness->getBeginLoc(),
                 "'%0' is called here%select{| in a loop}1 with a tensor that "
                 "carries autograd history",
                 DiagnosticIDs::Note)
          << (Callee ? Callee->getNameAsString() : std::string("the function"))
          << InLoop;
      return;
    }
  for (const Expr *Value : Values)
    if (auto Foreign = History.foreignCallWitness(Value)) {
      Check.diag(Foreign->Param->getLocation(),
                 "'%0' is handed a tensor that carries autograd history by a "
                 "call in another file, at %1",
                 DiagnosticIDs::Note)
          << Foreign->Param->getName() << Foreign->Summary.At;
      return;
    }
}

void noteMemberWrite(tidy::ClangTidyCheck &Check,
                     llvm::ArrayRef<const Expr *> Values,
                     analysis::HistoryAnalysis &History) {
  ASTContext &Ctx = History.context();
  for (const Expr *Value : Values)
    if (auto Written = History.memberWitness(Value)) {
      if (!Written->At) {
        Check.diag(Written->Field->getLocation(),
                   "'%0' is left holding a tensor that carries autograd "
                   "history by a method in another file, at %1",
                   DiagnosticIDs::Note)
            << Written->Field->getName() << Written->Elsewhere;
        return;
      }
      const auto *Method = dyn_cast_or_null<FunctionDecl>(
          analysis::enclosingFunction(Written->At, Ctx));
      Check.diag(Written->At->getBeginLoc(),
                 "'%0' is left holding a tensor that carries autograd "
                 "history here, in '%1'",
                 DiagnosticIDs::Note)
          << Written->Field->getName()
          << (Method ? Method->getNameAsString() : std::string("a method"));
      return;
    }
}

void noteAssumption(tidy::ClangTidyCheck &Check,
                    llvm::ArrayRef<const Expr *> Values,
                    analysis::HistoryAnalysis &History) {
  if (Values.empty())
    return;
  const CallExpr *At = nullptr;
  for (const Expr *Value : Values) {
    analysis::HistoryAnalysis::Assumption A = History.assumptionBehind(Value);
    if (!A.Rests)
      return;
    if (!At)
      At = A.At;
  }
  if (!At) {
    Check.diag(Values.front()->getBeginLoc(),
               "this history comes from code out of view that is assumed to "
               "pass history on (option OpaqueCallsPassHistory; the "
               "project's function summaries would say for sure)",
               DiagnosticIDs::Note);
    return;
  }
  // How the call names what it calls: `loss_function` for a std::function
  // or a pointer, the function's name otherwise.
  const Expr *Callee = At->getCallee();
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(At))
    Callee = Op->getArg(0);
  std::string Name =
      At->getDirectCallee() && !isa<CXXOperatorCallExpr>(At)
          ? At->getDirectCallee()->getNameAsString()
          : Lexer::getSourceText(
                CharSourceRange::getTokenRange(Callee->getSourceRange()),
                History.context().getSourceManager(),
                History.context().getLangOpts())
                .str();
  if (analysis::isForwardCallOutOfView(At, History.options().names()))
    Check.diag(At->getBeginLoc(),
               "'%0' is a method of the model with no body in view, assumed "
               "to run its forward pass (option OpaqueCallsPassHistory; the "
               "project's function summaries would say for sure)",
               DiagnosticIDs::Note)
        << Name;
  else
    Check.diag(At->getBeginLoc(),
               "'%0' has no body in view and is assumed to return autograd "
               "history because it is handed some (option "
               "OpaqueCallsPassHistory; the project's function summaries "
               "would say for sure)",
               DiagnosticIDs::Note)
        << Name;
}

void noteKeepingCallSite(tidy::ClangTidyCheck &Check,
                         const analysis::Lifetime &Life,
                         analysis::HistoryAnalysis &History) {
  const CallExpr *Site =
      analysis::keepingCallSite(Life, History.context(), History);
  if (!Site)
    return;
  const FunctionDecl *Callee = Site->getDirectCallee();
  Check.diag(Site->getBeginLoc(),
             "'%0' is called here with an object that outlives the call, "
             "so what it stores there builds up",
             DiagnosticIDs::Note)
      << (Callee ? Callee->getNameAsString() : std::string("the function"));
}

/// A module's state with a reset whose every call in view drops what the
/// method returns (stateKeptForNothing): a note at the unit's call, or at
/// \p Write where a call in another unit is.
static void noteStateDropped(tidy::ClangTidyCheck &Check,
                             const analysis::Lifetime &Life, const Stmt *Write,
                             analysis::HistoryAnalysis &History) {
  auto Dropped =
      analysis::stateKeptForNothing(Life, Write, History.context(), History);
  if (!Dropped)
    return;
  const FunctionDecl *Method =
      analysis::enclosingFunction(Write, History.context());
  std::string Name = Method ? Method->getNameAsString() : "the method";
  std::string State = Life.Target->getNameAsString();
  if (Dropped->Site)
    Check.diag(Dropped->Site->getBeginLoc(),
               "'%0' can be reset, but no call of '%1' differentiates what it "
               "returns (this call reads only numbers from it): nothing "
               "walks the chain '%0' carries, which grows until the reset",
               DiagnosticIDs::Note)
        << State << Name << Dropped->Site->getSourceRange();
  else
    Check.diag(Write->getBeginLoc(),
               "'%0' can be reset, but no call of '%1' differentiates what it "
               "returns (its calls are in other units, the first at %2): "
               "nothing walks the chain '%0' carries, which grows until the "
               "reset",
               DiagnosticIDs::Note)
        << State << Name << Dropped->Elsewhere;
}

void noteDiscardedResult(tidy::ClangTidyCheck &Check,
                         const analysis::Lifetime &Life, const Stmt *Write,
                         analysis::HistoryAnalysis &History) {
  auto Discarded =
      analysis::resultKeptForNothing(Life, Write, History.context(), History);
  if (!Discarded) {
    noteStateDropped(Check, Life, Write, History);
    return;
  }
  const FunctionDecl *Function =
      analysis::enclosingFunction(Life.LoopStmt, History.context());
  std::string Name = Function ? Function->getNameAsString() : "the function";
  if (Discarded->Site)
    Check.diag(Discarded->Site->getBeginLoc(),
               "'%0' returns what the loop gathers, and no caller "
               "differentiates it (this call reads only numbers from it): "
               "every stored graph is kept for nothing until the result is "
               "dropped",
               DiagnosticIDs::Note)
        << Name << Discarded->Site->getSourceRange();
  else
    Check.diag(Write->getBeginLoc(),
               "'%0' returns what the loop gathers, and no caller "
               "differentiates it (its calls are in other units, the first "
               "at %1): every stored graph is kept for nothing until the "
               "result is dropped",
               DiagnosticIDs::Note)
        << Name << Discarded->Elsewhere;
}

void noteNoFix(tidy::ClangTidyCheck &Check, const Stmt *Write, bool Recurrent) {
  Check.diag(Write->getBeginLoc(),
             Recurrent ? "no fix: a backward pass in the loop keeps the "
                         "graph of earlier iterations on purpose "
                         "(retain_graph), so detaching the state would change "
                         "its gradients"
                       : "no fix: a backward pass walks this graph, so "
                         "detaching what is stored would change its gradients",
             DiagnosticIDs::Note);
}

} // namespace torch_tidy
