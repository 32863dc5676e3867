//===--- UnnamedGradGuardCheck.cpp - torch-unnamed-grad-guard -------------===//

#include "checks/UnnamedGradGuardCheck.h"

#include "checks/analysis/GradGuard.h"
#include "checks/analysis/LoopScope.h"
#include "fixits/Edits.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torch_tidy {

namespace {
/// A LibTorch grad-mode guard class, or one derived from it.
AST_MATCHER(QualType, isGradGuardType) {
  return analysis::guardKindOfType(Node) != analysis::GuardKind::None;
}

/// The value of the expression is discarded where it is written: it is a
/// whole expression statement (possibly cast to void).
/// Whether \p E is written as `(void)E`.
bool isCastToVoid(const Expr *E, ASTContext &Ctx) {
  DynTypedNode Current = DynTypedNode::create(*E);
  for (unsigned Depth = 0; Depth < 6; ++Depth) {
    auto Parents = Ctx.getParents(Current);
    if (Parents.empty())
      return false;
    if (const auto *Cast = Parents[0].get<CStyleCastExpr>())
      return Cast->getType()->isVoidType();
    if (!Parents[0].get<Expr>())
      return false;
    Current = Parents[0];
  }
  return false;
}

AST_MATCHER(Expr, isDiscardedStatement) {
  ASTContext &Ctx = Finder->getASTContext();
  DynTypedNode Current = DynTypedNode::create(Node);
  while (true) {
    auto Parents = Ctx.getParents(Current);
    if (Parents.empty())
      return false;
    const DynTypedNode &Parent = Parents[0];
    if (const auto *Cast = Parent.get<CStyleCastExpr>()) {
      if (!Cast->getType()->isVoidType())
        return false;
    } else if (const auto *E = Parent.get<Expr>()) {
      if (!isa<ExprWithCleanups, CXXBindTemporaryExpr, MaterializeTemporaryExpr,
               ImplicitCastExpr, ParenExpr>(E))
        return false;
    } else {
      const auto *S = Parent.get<Stmt>();
      // A statement that holds expressions as statements: a block, a branch or
      // loop body, a label or case.
      return S && !isa<DeclStmt, ReturnStmt>(S) &&
             !isa_and_nonnull<Expr>(S);
    }
    Current = Parent;
  }
}

llvm::StringRef baseNameFor(analysis::GuardKind Kind) {
  switch (Kind) {
  case analysis::GuardKind::InferenceMode:
    return "inference_mode";
  case analysis::GuardKind::AutoGradMode:
    return "grad_mode";
  default:
    return "no_grad";
  }
}
} // namespace

void UnnamedGradGuardCheck::registerMatchers(MatchFinder *Finder) {
  // A guard written as `Type()`, `Type{}` or `Type(args)`: an object with no
  // name, destroyed at the end of the full expression.
  auto GuardTemporary =
      expr(anyOf(cxxTemporaryObjectExpr(hasType(qualType(isGradGuardType()))),
                 cxxFunctionalCastExpr(hasType(qualType(isGradGuardType())))));
  // ...that is its own statement, so nothing holds it past the semicolon.
  // (A non-dependent temporary in a template is one node shared by the
  // template and its instantiations; clang-tidy reports it once.)
  Finder->addMatcher(expr(GuardTemporary, isDiscardedStatement()).bind("guard"),
                     this);
  // A block, whose text between statements may name a guard type with no
  // object (`torch::NoGradGuard;`), for which clang builds no node.
  Finder->addMatcher(
      compoundStmt(unless(isInTemplateInstantiation())).bind("block"), this);
  // `torch::NoGradGuard guard();`: empty parentheses after a name make a
  // declaration of a function returning a guard (C++'s most vexing parse),
  // not a guard.
  Finder->addMatcher(functionDecl(returns(qualType(isGradGuardType())),
                                  hasParent(declStmt()),
                                  unless(isInstantiated()))
                         .bind("function"),
                     this);
}

std::string UnnamedGradGuardCheck::nameFor(const FunctionDecl *Function,
                                           llvm::StringRef Base) {
  llvm::StringSet<> &Given = NamesGiven[Function];
  llvm::StringSet<> Taken = fixits::namesUsedIn(Function);
  for (const auto &Name : Given)
    Taken.insert(Name.getKey());
  std::string Name = fixits::freshName(Base, Taken);
  Given.insert(Name);
  return Name;
}

void UnnamedGradGuardCheck::checkNamesWithoutObject(const CompoundStmt *Block,
                                                    ASTContext &Ctx) {
  for (const analysis::GuardWithoutObject &Guard :
       analysis::guardsWithoutObject(Block, Ctx)) {
    std::string TypeText =
        Lexer::getSourceText(CharSourceRange::getTokenRange(Guard.Name),
                             Ctx.getSourceManager(), getLangOpts())
            .str();
    auto Diag = diag(Guard.Name.getBegin(),
                     "'%0;' names a guard type but declares no object, so it "
                     "disables nothing: every following forward pass still "
                     "records an autograd graph and keeps its activations in "
                     "memory")
                << TypeText << Guard.Name;
    const FunctionDecl *Function = analysis::enclosingFunction(Block, Ctx);
    if (!Function)
      continue;
    std::string Name = nameFor(Function, baseNameFor(Guard.Kind));
    if (auto Fix = fixits::nameDeclaration(Guard.Name, Name, Ctx))
      Diag << *Fix;
  }
}

void UnnamedGradGuardCheck::checkFunctionDeclaration(
    const FunctionDecl *Declared, ASTContext &Ctx) {
  if (!analysis::isGuardDeclaredAsFunction(Declared))
    return;
  QualType Returned = Declared->getReturnType();
  FunctionTypeLoc Loc = Declared->getFunctionTypeLoc();
  // As written, its type and its own declarator (the second of
  // `Guard a(), b();` is `Guard b();`).
  auto Source = [&](SourceRange R) {
    return Lexer::getSourceText(CharSourceRange::getTokenRange(R),
                                Ctx.getSourceManager(), getLangOpts())
        .str();
  };
  SourceRange Written(Declared->getBeginLoc(), Loc.getRParenLoc());
  std::string Type = Source(Declared->getReturnTypeSourceRange());
  std::string Declarator =
      Source(SourceRange(Declared->getLocation(), Loc.getRParenLoc()));
  std::string Text = Type.empty() || Declarator.empty()
                         ? Source(Written)
                         : Type + " " + Declarator;
  if (Text.empty())
    Text = Returned.getAsString() + " " + Declared->getNameAsString() + "()";
  auto Diag = diag(Declared->getLocation(),
                   "'%0;' declares a function returning a guard, not a guard "
                   "object, so it disables nothing: every following forward "
                   "pass still records an autograd graph and keeps its "
                   "activations in memory")
              << Text;
  // `Type name();` becomes `Type name;`, its declarator marked; inside a
  // macro, neither (an edit there would change every use of it).
  SourceRange Parens(Loc.getLParenLoc(), Loc.getRParenLoc());
  if (Parens.getBegin().isMacroID() || Parens.getEnd().isMacroID() ||
      Declared->getLocation().isMacroID())
    return;
  Diag << SourceRange(Declared->getLocation(), Loc.getRParenLoc())
       << FixItHint::CreateRemoval(CharSourceRange::getTokenRange(Parens));
}

void UnnamedGradGuardCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  if (const auto *Block = Result.Nodes.getNodeAs<CompoundStmt>("block")) {
    checkNamesWithoutObject(Block, Ctx);
    return;
  }
  if (const auto *Declared = Result.Nodes.getNodeAs<FunctionDecl>("function")) {
    checkFunctionDeclaration(Declared, Ctx);
    return;
  }
  const auto *Guard = Result.Nodes.getNodeAs<Expr>("guard");

  SourceRange TypeRange, InitRange;
  bool HasArguments = false;
  const CXXConstructExpr *Construct = nullptr;
  if (const auto *Temp = dyn_cast<CXXTemporaryObjectExpr>(Guard)) {
    TypeRange = Temp->getTypeSourceInfo()->getTypeLoc().getSourceRange();
    InitRange = Temp->getParenOrBraceRange();
    HasArguments = Temp->getNumArgs() > 0 &&
                   !isa<CXXDefaultArgExpr>(Temp->getArg(0));
    Construct = Temp;
  } else {
    const auto *Cast = cast<CXXFunctionalCastExpr>(Guard);
    TypeRange = Cast->getTypeInfoAsWritten()->getTypeLoc().getSourceRange();
    InitRange = SourceRange(Cast->getLParenLoc(), Cast->getRParenLoc());
    if (const auto *List = dyn_cast<InitListExpr>(Cast->getSubExpr()))
      InitRange = SourceRange(List->getLBraceLoc(), List->getRBraceLoc());
    HasArguments = true;
    Construct = dyn_cast<CXXConstructExpr>(Cast->getSubExpr()->IgnoreImplicit());
  }

  std::optional<analysis::GuardEffect> Effect =
      Construct ? analysis::guardEffectOfConstruction(Construct, Ctx)
                : std::nullopt;
  analysis::GuardKind Kind = analysis::guardKindOfType(Guard->getType());
  std::string TypeText =
      Lexer::getSourceText(CharSourceRange::getTokenRange(TypeRange),
                           *Result.SourceManager, getLangOpts())
          .str();
  if (TypeText.empty())
    TypeText = Guard->getType().getAsString();

  auto Diag =
      Effect == analysis::GuardEffect::DisablesGrad
          ? diag(Guard->getBeginLoc(),
                 "'%0' is a temporary destroyed at the end of this statement, "
                 "so it disables nothing: every following forward pass still "
                 "records an autograd graph and keeps its activations in "
                 "memory")
          : diag(Guard->getBeginLoc(),
                 "'%0' is a temporary destroyed at the end of this statement, "
                 "so the grad mode it sets is undone before any following "
                 "forward pass runs");
  Diag << TypeText << Guard->getSourceRange();

  const FunctionDecl *Function = analysis::enclosingFunction(Guard, Ctx);
  // `(void)Type();` would need the cast removed as well: report only.
  if (!Function || isCastToVoid(Guard, Ctx))
    return;
  std::string Name = nameFor(Function, baseNameFor(Kind));
  if (auto Fix = fixits::nameTemporary(TypeRange, InitRange, HasArguments,
                                       Name, Ctx))
    Diag << *Fix;
}

} // namespace torch_tidy
