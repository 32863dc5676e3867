//===--- GraphAccumulationCheck.cpp - torch-graph-accumulation ------------===//

#include "checks/GraphAccumulationCheck.h"

#include "checks/analysis/CarriedState.h"
#include "checks/analysis/ExprUtils.h"
#include "checks/analysis/GradGuard.h"
#include "checks/analysis/Outlives.h"
#include "checks/analysis/TorchTypes.h"
#include "checks/GrowthDiagnostics.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torch_tidy {

namespace {
AST_MATCHER(QualType, isTensor) { return analysis::isTensorType(Node); }

/// The expression in \p Tie that names \p D.
const Expr *tiedExpr(const Expr *Tie, const ValueDecl *D) {
  const Expr *E = analysis::stripWrappers(Tie);
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E);
      Construct && Construct->getNumArgs() == 1)
    E = analysis::stripWrappers(Construct->getArg(0));
  if (const auto *Call = dyn_cast<CallExpr>(E))
    for (const Expr *Arg : Call->arguments()) {
      if (analysis::referencedDecl(Arg) == D)
        return Arg;
      if (const Expr *Nested = tiedExpr(Arg, D))
        return Nested;
    }
  return nullptr;
}

std::string shortText(const Expr *E, const ASTContext &Ctx) {
  llvm::StringRef Text = Lexer::getSourceText(
      CharSourceRange::getTokenRange(E->getSourceRange()),
      Ctx.getSourceManager(), Ctx.getLangOpts());
  std::string S = Text.str();
  std::replace(S.begin(), S.end(), '\n', ' ');
  if (S.size() > 40)
    S = S.substr(0, 37) + "...";
  return S;
}

/// One write into a target: what is written, and whether the target's own
/// old value is kept by the write itself (an update: `+=`, `add_`).
struct Write {
  const Expr *At = nullptr;
  llvm::SmallVector<std::pair<const Expr *, const ValueDecl *>, 2> Targets;
  llvm::SmallVector<const Expr *, 2> Values;
  bool IsUpdate = false;
};

Write writeOf(const MatchFinder::MatchResult &Result) {
  Write W;
  if (const auto *Update = Result.Nodes.getNodeAs<Expr>("update")) {
    W.At = Update;
    W.IsUpdate = true;
    const Expr *Object = nullptr;
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Update)) {
      Object = Op->getArg(0);
      W.Values.push_back(Op->getArg(1));
    } else {
      const auto *Call = cast<CXXMemberCallExpr>(Update);
      Object = Call->getImplicitObjectArgument();
      W.Values.append(Call->arg_begin(), Call->arg_end());
    }
    // ema.mul_(0.9).add_(x): the update writes into ema.
    Object = analysis::inPlaceChainRoot(Object);
    if (const ValueDecl *D = analysis::referencedDecl(Object))
      W.Targets.push_back({Object, D});
    return W;
  }
  const auto *Assign = Result.Nodes.getNodeAs<CXXOperatorCallExpr>("assign");
  W.At = Assign;
  const Expr *LHS = Assign->getArg(0);
  W.Values.push_back(Assign->getArg(1));
  if (analysis::holdsTensors(LHS->getType()) &&
      analysis::referencedDecl(LHS)) {
    W.Targets.push_back({LHS, analysis::referencedDecl(LHS)});
  } else {
    for (const ValueDecl *D : analysis::tiedDecls(LHS))
      if (analysis::holdsTensors(D->getType()))
        if (const Expr *E = tiedExpr(LHS, D))
          W.Targets.push_back({E, D});
  }
  return W;
}
} // namespace

void GraphAccumulationCheck::registerMatchers(MatchFinder *Finder) {
  auto Tensor = expr(hasType(qualType(isTensor())));
  // acc += t, acc -= t, acc *= t, acc /= t on a tensor.
  Finder->addMatcher(
      cxxOperatorCallExpr(hasAnyOverloadedOperatorName("+=", "-=", "*=", "/="),
                          hasArgument(0, Tensor))
          .bind("update"),
      this);
  // acc.add_(t) and the other in-place ops that keep what acc held, also
  // at the end of a chain (ema.mul_(0.9).add_(t)).
  Finder->addMatcher(
      cxxMemberCallExpr(on(Tensor),
                        callee(cxxMethodDecl(hasAnyName(
                            "add_", "sub_", "mul_", "div_", "addcmul_",
                            "addcdiv_", "lerp_"))))
          .bind("update"),
      this);
  // acc = f(acc, ...), h = cell(x, h), std::tie(out, h) = rnn(x, h).
  Finder->addMatcher(
      cxxOperatorCallExpr(hasOverloadedOperatorName("="), argumentCountIs(2))
          .bind("assign"),
      this);
}

void GraphAccumulationCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  analysis::HistoryAnalysis &History = Facts.history(Ctx, HistoryOpts);
  Write W = writeOf(Result);
  // Run with grad mode off (a guard active at the write, G), the update
  // records nothing: the target takes no history from it.
  if (analysis::gradStateAt(W.At, Ctx, &Facts.callers(Ctx),
                              HistoryOpts.names()) ==
      analysis::GradState::NotRecording)
    return;

  for (auto [TargetExpr, Target] : W.Targets) {
    std::optional<analysis::Lifetime> Life =
        analysis::outlivesIteration(TargetExpr, W.At, Ctx);
    // The object of the method as a whole (a class derived from a
    // container): what it holds is the container check's.
    if (!Life || !Life->Target)
      continue;
    // Updated in place, a parameter: that only runs with grad mode off.
    if (W.IsUpdate && History.writesIntoGradLeaf(TargetExpr))
      continue;
    analysis::CarriedState Carried(History, *Life, Target);
    // The write keeps what the target held before this iteration (or
    // call), and that may carry history: an update reads it itself, an
    // assignment through the value it computes.
    if (W.IsUpdate ? !Carried.readsCarriedHistory(TargetExpr)
                   : llvm::none_of(W.Values, [&](const Expr *V) {
                       return Carried.dependsOnCarried(V);
                     }))
      continue; // a plain overwrite keeps one graph at most
    // What replaces the old value holds no graph (H of the value as a whole,
    // through the bodies in view): nothing is carried over, whatever it was
    // computed from (a fresh leaf rebuilt from the old one and detached).
    if (!W.IsUpdate && llvm::none_of(W.Values, [&](const Expr *V) {
          return History.keepsGraph(V);
        }))
      continue;
    if (analysis::isBoundedOnPurpose(*Life, W.At, Ctx, History) ||
        llvm::any_of(W.Values, [&](const Expr *V) {
          return Carried.stepsThroughLayers(V);
        }))
      continue;
    analysis::WriteParts Parts;
    for (const Expr *V : W.Values) {
      analysis::WriteParts Here = Carried.split(V);
      Parts.Carrying.append(Here.Carrying.begin(), Here.Carrying.end());
      Parts.FedBack.append(Here.FedBack.begin(), Here.FedBack.end());
      Parts.CarriedReads.append(Here.CarriedReads.begin(),
                                Here.CarriedReads.end());
    }
    // A recurrent state is cut where the carried value is read (truncated
    // backpropagation through time): every such read, so that no path keeps
    // the old graph (`obs = cat({obs, policy(obs)})`).
    bool Recurrent = !Parts.FedBack.empty();
    if (!Recurrent && Parts.Carrying.empty())
      continue;
    // What is added is a piece of a graph made before the loop (per-level
    // slices of one output concatenated): the loop adds no graph of its
    // own, and the loop around it, if any, is the one that counts (O).
    if (!Recurrent && Life->Kind == analysis::Lifetime::Loop) {
      std::optional<analysis::Lifetime> Outer =
          analysis::outlivesIteration(TargetExpr, W.At, Ctx, Parts.Carrying);
      if (!Outer)
        continue;
      if (Outer->LoopStmt != Life->LoopStmt &&
          analysis::isBoundedOnPurpose(*Outer, W.At, Ctx, History))
        continue;
      Life = Outer;
    }
    report(W.At, *Life, Target, Recurrent ? Parts.CarriedReads : Parts.Carrying,
           Recurrent, History);
  }
}

void GraphAccumulationCheck::report(const Expr *Write,
                                    const analysis::Lifetime &Life,
                                    const ValueDecl *Target,
                                    llvm::ArrayRef<const Expr *> Parts,
                                    bool Recurrent,
                                    analysis::HistoryAnalysis &History) {
  ASTContext &Ctx = History.context();
  // A recurrent state fed back carries every earlier step's activations
  // (a backward pass through it would need retain_graph).
  Kept K = Recurrent ? Kept::Activations : keptBy(Parts, Life, Write, History);
  if (K == Kept::GraphNodes && !NodeOnly.reported())
    return;
  bool NoFix = detachChangesGradients(Life, Write, Recurrent, History);
  std::string Name = Target->getNameAsString();
  {
    auto Diag =
        Recurrent
            ? diag(Write->getBeginLoc(),
                   "'%0' is fed back into the model every iteration, so its "
                   "autograd history chains all iterations together: memory "
                   "grows with every step (and backward() needs "
                   "retain_graph=true)")
            : K == Kept::Activations
                  ? diag(Write->getBeginLoc(),
                         "'%0' outlives the %select{iteration|call}2 and takes "
                         "on the autograd history of '%1' every time, so each "
                         "step's graph and saved activations stay alive and "
                         "memory grows with every step")
                  : diag(Write->getBeginLoc(),
                         "'%0' outlives the %select{iteration|call}2 and takes "
                         "on the autograd history of '%1' every time; "
                         "backward() has freed the saved activations, but each "
                         "step's autograd graph nodes stay alive and host "
                         "memory grows with every step",
                         NodeOnly.level(K));
    Diag << Name;
    if (!Recurrent)
      Diag << shortText(Parts.front(), Ctx)
           << (Life.Kind == analysis::Lifetime::Call);
    Diag << Write->getSourceRange();
    // Detach the carried state (truncated backpropagation through time),
    // or what is added to the running value: every number stays the same.
    if (!NoFix)
      for (const FixItHint &Fix : detachEach(Parts, Ctx))
        Diag << Fix;
  }
  noteLifetime(*this, Life, Target);
  noteKeepingCallSite(*this, Life, History);
  noteDiscardedResult(*this, Life, Write, History);
  if (!Recurrent && Life.Kind == analysis::Lifetime::Call)
    noteCallSite(*this, Parts, History);
  if (!Recurrent) {
    noteMemberWrite(*this, Parts, History);
    noteAssumption(*this, Parts, History);
  }
  if (NoFix)
    noteNoFix(*this, Write, Recurrent);
}

} // namespace torch_tidy
