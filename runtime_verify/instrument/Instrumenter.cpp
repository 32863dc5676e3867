//===--- Instrumenter.cpp - place probes for growth findings --------------===//
#include "runtime_verify/instrument/Instrumenter.h"

#include "checks/analysis/LoopScope.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Lex/Lexer.h"
#include "clang/Tooling/Tooling.h"

#include "llvm/Support/Path.h"

#include <algorithm>
#include <set>

namespace torch_tidy {
namespace verify {

using namespace clang;

namespace {

/// Offsets of a node in the main file: [Begin, End) with End after the last
/// token. Invalid (Ok == false) when any end is in a macro or another file.
struct Span {
  bool Ok = false;
  unsigned Begin = 0, End = 0;
  bool contains(unsigned O) const { return Ok && Begin <= O && O < End; }
  unsigned size() const { return End - Begin; }
};

class Locator {
public:
  explicit Locator(ASTContext &Ctx) : Ctx(Ctx), SM(Ctx.getSourceManager()) {}

  Span span(SourceRange R) const {
    Span S;
    if (R.isInvalid() || R.getBegin().isMacroID() || R.getEnd().isMacroID())
      return S;
    if (!SM.isInMainFile(R.getBegin()) || !SM.isInMainFile(R.getEnd()))
      return S;
    S.Begin = SM.getFileOffset(R.getBegin());
    SourceLocation EndTok = Lexer::getLocForEndOfToken(R.getEnd(), 0, SM, Ctx.getLangOpts());
    if (EndTok.isInvalid())
      return S;
    S.End = SM.getFileOffset(EndTok);
    S.Ok = S.End >= S.Begin;
    return S;
  }

  std::string text(SourceRange R) const {
    return std::string(Lexer::getSourceText(CharSourceRange::getTokenRange(R), SM,
                                            Ctx.getLangOpts()));
  }

  /// Offset just after a statement, past its semicolon when it has one.
  unsigned endOfStatement(const Stmt *S) const {
    SourceLocation After = Lexer::findLocationAfterToken(S->getEndLoc(), tok::semi, SM,
                                                         Ctx.getLangOpts(), false);
    if (After.isValid() && !After.isMacroID())
      return SM.getFileOffset(After);
    return span(S->getSourceRange()).End;
  }

  unsigned line(unsigned Offset) const {
    return SM.getLineNumber(SM.getMainFileID(), Offset);
  }

  ASTContext &Ctx;
  SourceManager &SM;
};

/// Everything of the main file the planner looks at.
class Collector : public RecursiveASTVisitor<Collector> {
public:
  explicit Collector(const Locator &L) : L(L) {}
  bool shouldVisitLambdaBody() const { return true; }

  bool VisitFunctionDecl(FunctionDecl *F) {
    if (F->isMain() && F->doesThisDeclarationHaveABody())
      HasMain = true;
    if (F->doesThisDeclarationHaveABody() && L.span(F->getBody()->getSourceRange()).Ok)
      Functions.push_back(F);
    return true;
  }
  bool VisitStmt(Stmt *S) {
    if (!L.span(S->getSourceRange()).Ok)
      return true;
    if (isa<ForStmt, CXXForRangeStmt, WhileStmt, DoStmt>(S))
      Loops.push_back(S);
    if (isa<CompoundStmt>(S))
      Compounds.push_back(cast<CompoundStmt>(S));
    if (isa<DeclRefExpr, MemberExpr>(S))
      Names.push_back(cast<Expr>(S));
    if (isa<CallExpr>(S))
      Calls.push_back(cast<CallExpr>(S));
    return true;
  }

  const Locator &L;
  bool HasMain = false;
  std::vector<FunctionDecl *> Functions;
  std::vector<Stmt *> Loops;
  std::vector<CompoundStmt *> Compounds;
  std::vector<Expr *> Names;
  std::vector<CallExpr *> Calls;
};

/// The innermost node of `Nodes` whose span contains `Offset`.
template <class T>
T *innermost(const Locator &L, const std::vector<T *> &Nodes, unsigned Offset,
             const Span *Within = nullptr) {
  T *Best = nullptr;
  unsigned BestSize = ~0u;
  for (T *N : Nodes) {
    Span S = L.span(N->getSourceRange());
    if (!S.contains(Offset) || S.size() >= BestSize)
      continue;
    if (Within && !(Within->Begin <= S.Begin && S.End <= Within->End))
      continue;
    Best = N;
    BestSize = S.size();
  }
  return Best;
}

/// The variable or member \p E names.
const ValueDecl *referencedDecl(const Expr *E) {
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return DRE->getDecl();
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return ME->getMemberDecl();
  return nullptr;
}

class Planner {
public:
  Planner(const Locator &L, const Collector &C, std::string File)
      : L(L), C(C), File(std::move(File)) {}

  ProbePlan plan(const Finding &F) {
    ProbePlan P;
    P.ProbeName = F.Check + "@" + std::to_string(F.Line);
    FunctionDecl *Fn = functionAround(F.Offset);
    if (!Fn)
      return fail(P, "the finding is not inside a function body this tool can see");
    Span FnSpan = L.span(Fn->getBody()->getSourceRange());
    switch (F.Probe) {
    case VerifyProbe::ForwardResult:
      return planForwardWatch(P, F);
    case VerifyProbe::BackwardTensor: {
      const Expr *TargetExpr = backwardTarget(F.Offset, FnSpan);
      if (!TargetExpr)
        return fail(P, "cannot find the tensor whose backward() is called");
      P.Target = L.text(TargetExpr->getSourceRange());
      if (llvm::StringRef(P.Target).starts_with("{"))
        P.Target = "std::vector<at::Tensor>" + P.Target;
      return placeSample(P, F, Fn, FnSpan, TargetExpr, /*AtCallEnd=*/false);
    }
    case VerifyProbe::DeclaredTarget: {
      const ValueDecl *Declared = nullptr;
      const Expr *TargetExpr = declaredTarget(F, FnSpan, Declared);
      if (!TargetExpr)
        return fail(P, F.NoteFile.empty()
                           ? "the finding has no note at its target's declaration"
                           : "cannot find the variable the finding's note declares");
      P.Target = Declared->getNameAsString();
      return placeSample(P, F, Fn, FnSpan, TargetExpr, /*AtCallEnd=*/true);
    }
    case VerifyProbe::None:
      break;
    }
    return fail(P, "verify does not run findings of " + F.Check);
  }

private:
  static ProbePlan &fail(ProbePlan &P, std::string Why) {
    P.Error = std::move(Why);
    P.Insertions.clear();
    return P;
  }

  static std::string guard(const std::string &Sample) {
    return " auto torch_tidy_probe_guard_ = ::torch_tidy::probe::atScopeEnd([&] { " + Sample +
           " });";
  }

  /// The innermost function body around \p Offset.
  FunctionDecl *functionAround(unsigned Offset) const {
    FunctionDecl *Fn = nullptr;
    unsigned Best = ~0u;
    for (FunctionDecl *Cand : C.Functions) {
      Span S = L.span(Cand->getBody()->getSourceRange());
      if (S.contains(Offset) && S.size() < Best) {
        Best = S.size();
        Fn = Cand;
      }
    }
    return Fn;
  }

  /// Whether \p D is declared where the finding's first note points.
  bool declaredAtNote(const ValueDecl *D, const Finding &F) const {
    SourceLocation Loc = L.SM.getFileLoc(D->getLocation());
    if (Loc.isInvalid() || L.SM.getFileOffset(Loc) != F.NoteOffset)
      return false;
    if (L.SM.isInMainFile(Loc))
      return sameFile(F.NoteFile, File);
    return sameFile(F.NoteFile, L.SM.getFilename(Loc));
  }

  /// The first use, from the finding on, of the variable declared where the
  /// finding's first note points (the check puts that note there).
  const Expr *declaredTarget(const Finding &F, const Span &FnSpan,
                             const ValueDecl *&Declared) const {
    if (F.NoteFile.empty())
      return nullptr;
    const Expr *Best = nullptr;
    unsigned BestBegin = ~0u;
    for (Expr *E : C.Names) {
      Span S = L.span(E->getSourceRange());
      if (!S.Ok || S.Begin < F.Offset || S.End > FnSpan.End || S.Begin >= BestBegin)
        continue;
      const ValueDecl *D = referencedDecl(E);
      if (D && declaredAtNote(D, F)) {
        Best = E;
        BestBegin = S.Begin;
        Declared = D;
      }
    }
    return Best;
  }

  /// Samples P.Target where TargetExpr's declaration says: when a member,
  /// global or static (and \p AtCallEnd), at the end of every call; when
  /// declared before the loop, at the end of every iteration; when declared
  /// in the loop, right after the flagged statement.
  ProbePlan &placeSample(ProbePlan &P, const Finding &F, FunctionDecl *Fn, const Span &FnSpan,
                         const Expr *TargetExpr, bool AtCallEnd) {
    std::string Sample =
        "::torch_tidy::probe::sample(\"" + P.ProbeName + "\", " + P.Target + ");";
    const Expr *Stripped = TargetExpr->IgnoreParenImpCasts();
    const ValueDecl *Decl = nullptr;
    bool OutlivesCall = false;
    if (const auto *ME = dyn_cast<MemberExpr>(Stripped)) {
      Decl = ME->getMemberDecl();
      OutlivesCall = isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts());
    } else if (const auto *DRE = dyn_cast<DeclRefExpr>(Stripped)) {
      Decl = DRE->getDecl();
      if (const auto *VD = dyn_cast<VarDecl>(Decl))
        OutlivesCall = VD->hasGlobalStorage();
    }
    if (OutlivesCall && AtCallEnd) {
      const auto *Body = cast<CompoundStmt>(Fn->getBody());
      P.Where = "end of every call of " + Fn->getNameAsString();
      P.Insertions.push_back({L.span(Body->getSourceRange()).Begin + 1, guard(Sample)});
      return P;
    }
    Stmt *Loop = innermost(L, C.Loops, F.Offset, &FnSpan);
    if (!Loop)
      return fail(P, "no loop around the finding");
    Span LoopSpan = L.span(Loop->getSourceRange());
    Span DeclSpan = Decl ? L.span(Decl->getSourceRange()) : Span();
    bool DeclaredInLoop = !Decl || (DeclSpan.Ok && LoopSpan.contains(DeclSpan.Begin));
    if (!DeclaredInLoop) {
      P.Where = "end of every iteration of the loop at line " +
                std::to_string(L.line(LoopSpan.Begin));
      wrapOrPrepend(P, analysis::loopBody(Loop), guard(Sample));
      return P;
    }
    // Declared in the loop: sample right after the flagged statement.
    CompoundStmt *Block = innermost(L, C.Compounds, F.Offset, &LoopSpan);
    const Stmt *Flagged = nullptr;
    if (Block)
      for (const Stmt *Child : Block->body())
        if (L.span(Child->getSourceRange()).contains(F.Offset))
          Flagged = Child;
    if (!Flagged)
      return fail(P, "cannot find the statement of the finding");
    P.Where = "after the statement at line " +
              std::to_string(L.line(L.span(Flagged->getSourceRange()).Begin));
    P.Insertions.push_back({L.endOfStatement(Flagged), " " + Sample});
    return P;
  }

  void wrapOrPrepend(ProbePlan &P, const Stmt *Body, const std::string &Text) {
    if (const auto *CS = dyn_cast<CompoundStmt>(Body)) {
      P.Insertions.push_back({L.span(CS->getSourceRange()).Begin + 1, Text});
      return;
    }
    Span S = L.span(Body->getSourceRange());
    P.Insertions.push_back({S.Begin, "{" + Text + " "});
    P.Insertions.push_back({L.endOfStatement(Body), " }"});
  }

  /// The object of the backward call around Offset (or the first argument
  /// of a free backward/grad call).
  const Expr *backwardTarget(unsigned Offset, const Span &FnSpan) {
    const Expr *Best = nullptr;
    unsigned BestSize = ~0u;
    for (CallExpr *Call : C.Calls) {
      Span S = L.span(Call->getSourceRange());
      if (!S.contains(Offset) || S.size() >= BestSize || S.End > FnSpan.End)
        continue;
      const FunctionDecl *Callee = Call->getDirectCallee();
      if (!Callee || !Callee->getDeclName().isIdentifier())
        continue;
      llvm::StringRef Name = Callee->getName();
      const Expr *T = nullptr;
      if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call)) {
        if (Name == "backward")
          T = MC->getImplicitObjectArgument();
      } else if ((Name == "backward" || Name == "grad") && Call->getNumArgs() > 0) {
        T = Call->getArg(0);
      }
      if (T && L.span(T->getSourceRange()).Ok) {
        Best = T;
        BestSize = S.size();
      }
    }
    return Best;
  }

  /// VerifyProbe::ForwardResult: sample the result of the forward call the
  /// finding points at.
  ProbePlan &planForwardWatch(ProbePlan &P, const Finding &F) {
    const CallExpr *Best = nullptr;
    unsigned BestSize = ~0u;
    for (CallExpr *Call : C.Calls) {
      Span S = L.span(Call->getSourceRange());
      if (!S.Ok || S.Begin != F.Offset || S.size() >= BestSize)
        continue;
      if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call))
        if (Op->getOperator() == OO_Arrow || Op->getOperator() == OO_Star)
          continue;
      if (Call->getType()->isVoidType() || Call->getType()->isPointerType())
        continue;
      Best = Call;
      BestSize = S.size();
    }
    if (!Best)
      return fail(P, "cannot find the forward call of the finding");
    Span S = L.span(Best->getSourceRange());
    P.Target = L.text(Best->getSourceRange());
    P.Where = "each result of the forward call at line " + std::to_string(F.Line);
    P.Insertions.push_back({S.Begin, "::torch_tidy::probe::watch(\"" + P.ProbeName + "\", "});
    P.Insertions.push_back({S.End, ")"});
    return P;
  }

  const Locator &L;
  const Collector &C;
  std::string File;
};

/// The files the unit read, other than the main file and those that came
/// from a precompiled header.
std::vector<IncludedFile> includedFiles(const SourceManager &SM) {
  std::vector<IncludedFile> Files;
  std::set<std::string> Seen;
  for (unsigned I = 0, N = SM.local_sloc_entry_size(); I < N; ++I) {
    const SrcMgr::SLocEntry &E = SM.getLocalSLocEntry(I);
    if (!E.isFile() || E.getFile().getIncludeLoc().isInvalid())
      continue; // not a file, or the main file
    const SrcMgr::FileInfo &Info = E.getFile();
    OptionalFileEntryRef Entry = Info.getContentCache().OrigEntry;
    if (!Entry)
      continue;
    llvm::SmallString<256> Path(Entry->getName());
    SM.getFileManager().makeAbsolutePath(Path);
    llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
    if (Seen.insert(std::string(Path)).second)
      Files.push_back({std::string(Path), Info.getFileCharacteristic() != SrcMgr::C_User});
  }
  return Files;
}

} // namespace

llvm::Expected<ProgramPlan> planProbes(const std::string &File, llvm::StringRef Code,
                                       const std::vector<std::string> &Flags,
                                       const std::vector<Finding> &Findings) {
  std::vector<std::string> Args = Flags;
  Args.insert(Args.begin(), std::string("-resource-dir=") + TORCH_TIDY_VERIFY_RESOURCE_DIR);
  std::unique_ptr<ASTUnit> AST =
      tooling::buildASTFromCodeWithArgs(Code, Args, File, "torch-tidy-verify");
  if (!AST || AST->getDiagnostics().hasErrorOccurred())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "the program does not compile with the given flags");
  Locator L(AST->getASTContext());
  Collector C(L);
  C.TraverseDecl(AST->getASTContext().getTranslationUnitDecl());
  ProgramPlan Result;
  Result.HasMain = C.HasMain;
  Result.Included = includedFiles(AST->getSourceManager());
  Planner P(L, C, File);
  for (const Finding &F : Findings)
    Result.Plans.push_back(P.plan(F));
  return Result;
}

std::string applyInsertions(llvm::StringRef Code, const std::vector<Insertion> &Insertions) {
  std::vector<Insertion> Sorted = Insertions;
  std::stable_sort(Sorted.begin(), Sorted.end(),
                   [](const Insertion &A, const Insertion &B) { return A.Offset > B.Offset; });
  std::string Out = Code.str();
  for (const Insertion &I : Sorted)
    Out.insert(std::min<size_t>(I.Offset, Out.size()), I.Text);
  return Out;
}

llvm::Expected<std::string> applyFixAndInsertions(llvm::StringRef Code,
                                                  const clang::tooling::Replacements &Fix,
                                                  const std::vector<Insertion> &Insertions) {
  llvm::Expected<std::string> Fixed = clang::tooling::applyAllReplacements(Code, Fix);
  if (!Fixed)
    return Fixed.takeError();
  std::vector<Insertion> Moved;
  for (const Insertion &I : Insertions)
    Moved.push_back({Fix.getShiftedCodePosition(I.Offset), I.Text});
  return applyInsertions(*Fixed, Moved);
}

} // namespace verify
} // namespace torch_tidy
