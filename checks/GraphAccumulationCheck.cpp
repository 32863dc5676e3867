//===--- GraphAccumulationCheck.cpp - torch-graph-accumulation ------------===//

#include "checks/GraphAccumulationCheck.h"

#include "checks/analysis/ExprUtils.h"
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

/// What the value written into a target is made of.
struct Parts {
  /// Largest pieces that do not involve the target and carry history.
  llvm::SmallVector<const Expr *, 2> Carrying;
  /// Uses of the target fed into a module's forward: a recurrent state.
  llvm::SmallVector<const Expr *, 2> FedBack;
};

class ValueSplitter {
public:
  ValueSplitter(const ValueDecl *Target, analysis::HistoryAnalysis &History)
      : Target(Target), History(History) {}

  void split(const Expr *E, bool InForward, Parts &Out) {
    if (!E)
      return;
    const Expr *Bare = analysis::stripWrappers(E);
    if (isCut(Bare))
      return;
    if (!mentionsLive(Bare)) {
      if (analysis::holdsTensors(Bare->getType()) &&
          History.carriesHistory(Bare))
        Out.Carrying.push_back(Bare);
      return;
    }
    if (analysis::referencedDecl(Bare) == Target) {
      if (InForward)
        Out.FedBack.push_back(Bare);
      return;
    }
    bool Forward = InForward || analysis::isForwardCall(Bare);
    for (const Stmt *Child : Bare->children())
      if (const auto *ChildExpr = dyn_cast_or_null<Expr>(Child))
        split(ChildExpr, Forward, Out);
  }

  /// Whether \p E uses the target other than through detach(), item(), ...
  bool mentionsLive(const Expr *E) {
    if (!E)
      return false;
    E = analysis::stripWrappers(E);
    if (isCut(E))
      return false;
    if (analysis::referencedDecl(E) == Target)
      return true;
    for (const Stmt *Child : E->children())
      if (const auto *ChildExpr = dyn_cast_or_null<Expr>(Child))
        if (mentionsLive(ChildExpr))
          return true;
    return false;
  }

private:
  /// A call whose result carries no history whatever goes in.
  bool isCut(const Expr *E) {
    return analysis::cutsHistory(E, History.context());
  }
  const ValueDecl *Target;
  analysis::HistoryAnalysis &History;
};

/// The expression in \p Tie that names \p D.
const Expr *tiedExpr(const Expr *Tie, const ValueDecl *D) {
  const Expr *E = analysis::stripWrappers(Tie);
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E);
      Construct && Construct->getNumArgs() == 1)
    E = analysis::stripWrappers(Construct->getArg(0));
  if (const auto *Call = dyn_cast<CallExpr>(E))
    for (const Expr *Arg : Call->arguments())
      if (analysis::referencedDecl(Arg) == D)
        return Arg;
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
} // namespace

GraphAccumulationCheck::GraphAccumulationCheck(
    llvm::StringRef Name, clang::tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      AssumeUnknownTensorsCarryHistory(
          Options.get("AssumeUnknownTensorsCarryHistory", false)) {}

void GraphAccumulationCheck::storeOptions(
    clang::tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "AssumeUnknownTensorsCarryHistory",
                AssumeUnknownTensorsCarryHistory);
}

void GraphAccumulationCheck::registerMatchers(MatchFinder *Finder) {
  auto Tensor = expr(hasType(qualType(isTensor())));
  // acc += t, acc -= t, acc *= t, acc /= t on a tensor.
  Finder->addMatcher(
      cxxOperatorCallExpr(hasAnyOverloadedOperatorName("+=", "-=", "*=", "/="),
                          hasArgument(0, Tensor))
          .bind("update"),
      this);
  // acc.add_(t) and the other in-place ops that keep what acc held.
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
  analysis::HistoryAnalysis &History =
      Facts.history(Ctx, AssumeUnknownTensorsCarryHistory);

  const Expr *Write = nullptr;
  llvm::SmallVector<std::pair<const Expr *, const ValueDecl *>, 2> Targets;
  llvm::SmallVector<const Expr *, 2> Values;
  bool SelfReferenceNeeded = false;

  if (const auto *Update = Result.Nodes.getNodeAs<Expr>("update")) {
    Write = Update;
    const Expr *Object = nullptr;
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Update)) {
      Object = Op->getArg(0);
      Values.push_back(Op->getArg(1));
    } else {
      const auto *Call = cast<CXXMemberCallExpr>(Update);
      Object = Call->getImplicitObjectArgument();
      Values.append(Call->arg_begin(), Call->arg_end());
    }
    if (const ValueDecl *D = analysis::referencedDecl(Object))
      Targets.push_back({Object, D});
  } else {
    const auto *Assign = Result.Nodes.getNodeAs<CXXOperatorCallExpr>("assign");
    Write = Assign;
    const Expr *LHS = Assign->getArg(0);
    Values.push_back(Assign->getArg(1));
    SelfReferenceNeeded = true;
    if (analysis::isTensorType(LHS->getType())) {
      if (const ValueDecl *D = analysis::referencedDecl(LHS))
        Targets.push_back({LHS, D});
    } else {
      for (const ValueDecl *D : analysis::tiedDecls(LHS))
        if (analysis::holdsTensors(D->getType()))
          if (const Expr *E = tiedExpr(LHS, D))
            Targets.push_back({E, D});
    }
  }

  for (auto [TargetExpr, Target] : Targets) {
    ValueSplitter Splitter(Target, History);
    if (SelfReferenceNeeded &&
        !llvm::any_of(Values, [&](const Expr *V) {
          return Splitter.mentionsLive(V);
        }))
      continue; // a plain overwrite keeps one graph at most
    std::optional<analysis::Lifetime> Life =
        analysis::outlivesIteration(TargetExpr, Write, Ctx);
    if (!Life || analysis::isBoundedOnPurpose(*Life, Write, Ctx))
      continue;
    Parts Split;
    for (const Expr *V : Values)
      Splitter.split(V, /*InForward=*/false, Split);

    std::string Name = Target->getNameAsString();
    bool Recurrent = !Split.FedBack.empty();
    if (!Recurrent && Split.Carrying.empty())
      continue;
    {
      auto Diag =
          Recurrent
              ? diag(Write->getBeginLoc(),
                     "'%0' is fed back into the model every iteration, so its "
                     "autograd history chains all iterations together: memory "
                     "grows with every step (and backward() needs "
                     "retain_graph=true)")
              : diag(Write->getBeginLoc(),
                     "'%0' outlives the %select{iteration|call}2 and takes on "
                     "the autograd history of '%1' every time, so each step's "
                     "graph and saved activations stay alive and memory grows "
                     "with every step");
      Diag << Name;
      if (!Recurrent)
        Diag << shortText(Split.Carrying.front(), Ctx)
             << (Life->Kind == analysis::Lifetime::Call);
      Diag << Write->getSourceRange();
      // Detach the carried state (truncated backpropagation through time),
      // or what is added to the running value: every number stays the same.
      for (const FixItHint &Fix :
           detachEach(Recurrent ? Split.FedBack : Split.Carrying, Ctx))
        Diag << Fix;
    }
    noteLifetime(*this, *Life, Target);
  }
}

} // namespace torch_tidy
