//===--- Edits.cpp - Building fix-its as token-range edits ----------------===//

#include "fixits/Edits.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
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

std::optional<FixItHint> nameDeclaration(SourceRange TypeRange,
                                         llvm::StringRef Name,
                                         const ASTContext &Ctx) {
  if (TypeRange.isInvalid() || isInMacro(TypeRange))
    return std::nullopt;
  return FixItHint::CreateInsertion(endOfToken(TypeRange.getEnd(), Ctx),
                                    (" " + Name).str());
}

std::optional<FixItHint> appendDetach(const Expr *E, const ASTContext &Ctx) {
  SourceRange Range = E->getSourceRange();
  if (Range.isInvalid() || isInMacro(Range))
    return std::nullopt;
  const Expr *Bare = E->IgnoreImplicit();
  bool Postfix = isa<DeclRefExpr, MemberExpr, CallExpr, ParenExpr,
                     ArraySubscriptExpr, CXXTemporaryObjectExpr>(Bare);
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Bare))
    Postfix = Op->getOperator() == OO_Subscript || Op->getOperator() == OO_Call ||
              Op->getOperator() == OO_Arrow;
  SourceLocation End = endOfToken(Range.getEnd(), Ctx);
  if (Postfix)
    return FixItHint::CreateInsertion(End, ".detach()");
  // (expr).detach(): two insertions are one replacement of the whole text.
  llvm::StringRef Text = Lexer::getSourceText(
      CharSourceRange::getTokenRange(Range), Ctx.getSourceManager(),
      Ctx.getLangOpts());
  if (Text.empty())
    return std::nullopt;
  return FixItHint::CreateReplacement(CharSourceRange::getTokenRange(Range),
                                      ("(" + Text + ").detach()").str());
}

/// The whitespace that starts the line of \p Loc.
static std::string indentationOf(SourceLocation Loc, const SourceManager &SM) {
  unsigned Column = SM.getSpellingColumnNumber(Loc);
  llvm::StringRef Buffer = SM.getBufferData(SM.getFileID(Loc));
  unsigned LineStart = SM.getFileOffset(Loc) - (Column - 1);
  llvm::StringRef Line = Buffer.substr(LineStart);
  return Line.take_while([](char C) { return C == ' ' || C == '\t'; }).str();
}

/// The line ending the file uses ("\r\n" or "\n").
static llvm::StringRef lineEnding(SourceLocation Loc, const SourceManager &SM) {
  llvm::StringRef Buffer = SM.getBufferData(SM.getFileID(Loc));
  size_t NewLine = Buffer.find('\n');
  return NewLine != llvm::StringRef::npos && NewLine > 0 &&
                 Buffer[NewLine - 1] == '\r'
             ? "\r\n"
             : "\n";
}

std::optional<FixItHint> insertLineAfter(const Stmt *After,
                                         llvm::StringRef Declaration,
                                         const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceRange Range = After->getSourceRange();
  if (Range.isInvalid() || isInMacro(Range))
    return std::nullopt;
  SourceLocation AfterSemi = Lexer::findLocationAfterToken(
      Range.getEnd(), tok::semi, SM, Ctx.getLangOpts(),
      /*SkipTrailingWhitespaceAndNewLine=*/false);
  if (AfterSemi.isInvalid())
    return std::nullopt;
  return FixItHint::CreateInsertion(
      AfterSemi, (lineEnding(AfterSemi, SM) +
                  indentationOf(Range.getBegin(), SM) + Declaration)
                     .str());
}

std::optional<FixItHint> insertAtStart(const CompoundStmt *Body,
                                       llvm::StringRef Declaration,
                                       const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation LBrace = Body->getLBracLoc();
  if (LBrace.isInvalid() || LBrace.isMacroID())
    return std::nullopt;
  std::string Indent;
  if (!Body->body_empty() && !Body->body_front()->getBeginLoc().isMacroID() &&
      SM.getSpellingLineNumber(Body->body_front()->getBeginLoc()) !=
          SM.getSpellingLineNumber(LBrace))
    Indent = indentationOf(Body->body_front()->getBeginLoc(), SM);
  else
    Indent = indentationOf(LBrace, SM) + "  ";
  return FixItHint::CreateInsertion(
      LBrace.getLocWithOffset(1),
      (lineEnding(LBrace, SM) + Indent + Declaration).str());
}

std::optional<FixItHint> insertLineBefore(const Stmt *Before, llvm::StringRef Line,
                                          const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Begin = Before->getBeginLoc();
  if (Begin.isInvalid() || isInMacro(Before->getSourceRange()))
    return std::nullopt;
  std::string Indent = indentationOf(Begin, SM);
  // Only where the statement starts its line: the new line goes before it.
  if (SM.getSpellingColumnNumber(Begin) != Indent.size() + 1)
    return std::nullopt;
  return FixItHint::CreateInsertion(
      Begin, (Line + lineEnding(Begin, SM) + Indent).str());
}

std::optional<FixItHint> insertAtEnd(const CompoundStmt *Body, llvm::StringRef Line,
                                     const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation RBrace = Body->getRBracLoc();
  if (RBrace.isInvalid() || RBrace.isMacroID() || Body->body_empty())
    return std::nullopt;
  const Stmt *Last = Body->body_back();
  SourceLocation LastBegin = Last->getBeginLoc();
  if (LastBegin.isMacroID() || Last->getEndLoc().isMacroID() ||
      SM.getSpellingLineNumber(Last->getEndLoc()) == SM.getSpellingLineNumber(RBrace))
    return std::nullopt;
  // At the start of the closing brace's line, which holds nothing else.
  std::string BraceIndent = indentationOf(RBrace, SM);
  if (SM.getSpellingColumnNumber(RBrace) != BraceIndent.size() + 1)
    return std::nullopt;
  SourceLocation LineStart = RBrace.getLocWithOffset(-int(BraceIndent.size()));
  return FixItHint::CreateInsertion(
      LineStart,
      (indentationOf(LastBegin, SM) + Line + lineEnding(RBrace, SM)).str());
}

namespace {
class NameCollector : public RecursiveASTVisitor<NameCollector> {
public:
  llvm::StringSet<> Names;
  bool VisitNamedDecl(NamedDecl *D) {
    add(D);
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    add(Ref->getDecl());
    return true;
  }
  bool VisitMemberExpr(MemberExpr *Member) {
    add(Member->getMemberDecl());
    return true;
  }

private:
  void add(const NamedDecl *D) {
    if (D->getIdentifier())
      Names.insert(D->getName());
  }
};
} // namespace

llvm::StringSet<> namesUsedIn(const FunctionDecl *Function) {
  NameCollector Collector;
  Collector.TraverseDecl(const_cast<FunctionDecl *>(Function));
  return std::move(Collector.Names);
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
