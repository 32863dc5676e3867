//===--- Edits.cpp - Building fix-its as token-range edits ----------------===//

#include "fixits/Edits.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace torch_tidy::fixits {

bool isInMacro(SourceRange Range) {
  return Range.getBegin().isMacroID() || Range.getEnd().isMacroID();
}

/// The location just past the last character of the token at \p Loc.
static SourceLocation endOfToken(SourceLocation Loc, const ASTContext &Ctx) {
  return Lexer::getLocForEndOfToken(Loc, 0, Ctx.getSourceManager(),
                                    Ctx.getLangOpts());
}

std::optional<FixItHint> removeTrailingArgument(const CallExpr *Call,
                                                unsigned Index,
                                                const ASTContext &Ctx) {
  if (Index == 0 || Index >= Call->getNumArgs())
    return std::nullopt;
  const Expr *Arg = Call->getArg(Index);
  const Expr *Previous = Call->getArg(Index - 1);
  if (isa<CXXDefaultArgExpr>(Arg) || isa<CXXDefaultArgExpr>(Previous))
    return std::nullopt;
  if (Index + 1 < Call->getNumArgs() &&
      !isa<CXXDefaultArgExpr>(Call->getArg(Index + 1)))
    return std::nullopt;
  SourceRange ArgRange = Arg->getSourceRange();
  SourceRange PrevRange = Previous->getSourceRange();
  if (isInMacro(ArgRange) || isInMacro(PrevRange) || ArgRange.isInvalid() ||
      PrevRange.isInvalid())
    return std::nullopt;
  SourceLocation From = endOfToken(PrevRange.getEnd(), Ctx);
  SourceLocation To = endOfToken(ArgRange.getEnd(), Ctx);
  if (From.isInvalid() || To.isInvalid())
    return std::nullopt;
  return FixItHint::CreateRemoval(CharSourceRange::getCharRange(From, To));
}

std::optional<FixItHint> replaceExpr(const Expr *Arg, llvm::StringRef Text,
                                     const ASTContext &Ctx) {
  SourceRange Range = Arg->getSourceRange();
  if (Range.isInvalid() || isInMacro(Range))
    return std::nullopt;
  return FixItHint::CreateReplacement(CharSourceRange::getTokenRange(Range),
                                      Text);
}

std::optional<FixItHint> nameTemporary(SourceRange TypeRange,
                                       SourceRange InitRange, bool HasArguments,
                                       llvm::StringRef Name,
                                       const ASTContext &Ctx) {
  if (TypeRange.isInvalid() || InitRange.isInvalid() || isInMacro(TypeRange) ||
      isInMacro(InitRange))
    return std::nullopt;
  if (HasArguments) // Type(args) -> Type Name(args)
    return FixItHint::CreateInsertion(InitRange.getBegin(), (" " + Name).str());
  // Type() -> Type Name: with the parentheses kept it would declare a
  // function.
  SourceLocation TypeEnd = endOfToken(TypeRange.getEnd(), Ctx);
  return FixItHint::CreateReplacement(
      CharSourceRange::getTokenRange(SourceRange(TypeEnd, InitRange.getEnd())),
      (" " + Name).str());
}

std::string freshName(llvm::StringRef Base, const llvm::StringSet<> &Taken) {
  if (!Taken.contains(Base))
    return Base.str();
  for (unsigned Suffix = 2;; ++Suffix) {
    std::string Candidate = (Base + "_" + llvm::Twine(Suffix)).str();
    if (!Taken.contains(Candidate))
      return Candidate;
  }
}

} // namespace torch_tidy::fixits
