//===--- Walk.cpp - One pre-order walk over statements and declarations ---===//
//
// The one instantiation of RecursiveASTVisitor that the analyses and checks
// share.
//
//===----------------------------------------------------------------------===//

#include "checks/analysis/Walk.h"

#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace torch_tidy::analysis {

class StmtWalk::Impl : public RecursiveASTVisitor<Impl> {
  using Base = RecursiveASTVisitor<Impl>;

public:
  explicit Impl(StmtWalk &Walk) : Walk(Walk) {}

  bool shouldVisitTemplateInstantiations() const {
    return Walk.Opts.TemplateInstantiations;
  }
  bool shouldVisitLambdaBody() const { return Walk.Opts.LambdaBodies; }

  bool TraverseStmt(Stmt *S, DataRecursionQueue *Queue = nullptr) {
    if (!S)
      return true;
    if (!Walk.enter(S))
      return true;
    // Without the queue, each child is entered when the walk reaches it.
    return Base::TraverseStmt(S, Walk.Opts.EnterInOrder ? nullptr : Queue);
  }
  bool VisitStmt(Stmt *S) { return Walk.visit(S); }

  bool TraverseDecl(Decl *D) {
    if (!D)
      return true;
    if (!Walk.enterDecl(D))
      return true;
    bool Result = Base::TraverseDecl(D);
    Walk.leaveDecl(D);
    return Result;
  }
  bool VisitDecl(Decl *D) { return Walk.visitDecl(D); }

private:
  StmtWalk &Walk;
};

StmtWalk::~StmtWalk() = default;

bool StmtWalk::walk(const Stmt *S) {
  return Impl(*this).TraverseStmt(const_cast<Stmt *>(S));
}

bool StmtWalk::walkDecl(const Decl *D) {
  return Impl(*this).TraverseDecl(const_cast<Decl *>(D));
}

} // namespace torch_tidy::analysis
