//===--- Walk.h - One pre-order walk over statements and declarations -----===//
//
// The walk of the analyses and checks: clang's RecursiveASTVisitor, compiled
// once (in Walk.cpp) and configured at run time. Each class derived from
// RecursiveASTVisitor<Derived> is an instantiation of the whole traversal of
// its own, costly to compile; a StmtWalk subclass only overrides the hooks
// it needs.
//
// The walk is RecursiveASTVisitor's, node for node, with its defaults
// (pre-order, no implicit code). visit() is called where its VisitStmt would
// be, visitDecl() where its VisitDecl would be. A handler of one node class
// there (VisitCallExpr) becomes a dyn_cast in visit(); where a node has
// handlers of several of its classes, RecursiveASTVisitor calls them from
// the most general class to the most specific (VisitExpr, VisitCallExpr,
// VisitCXXMemberCallExpr) and stops at the first that returns false, and so
// must visit().
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_ANALYSIS_WALK_H
#define TORCH_TIDY_ANALYSIS_WALK_H

namespace clang {
class Decl;
class Stmt;
} // namespace clang

namespace torch_tidy::analysis {

/// Subclass it, override the hooks, and call walk(S) or walkDecl(D).
/// A walk may be started again, also from inside a hook (a walk of its own,
/// as RecursiveASTVisitor's TraverseStmt called from a Visit method).
class StmtWalk {
public:
  struct Options {
    /// RecursiveASTVisitor's shouldVisitTemplateInstantiations().
    bool TemplateInstantiations = false;
    /// RecursiveASTVisitor's shouldVisitLambdaBody().
    bool LambdaBodies = true;
    /// When enter() is asked of a statement. By default the walk keeps a
    /// queue of its own, as RecursiveASTVisitor does without a TraverseStmt
    /// override: enter() is asked of all the children of a statement before
    /// the first of them is walked. With this, enter() is asked of each
    /// statement just before it is walked, after the subtrees of its
    /// earlier siblings (RecursiveASTVisitor with a `TraverseStmt(Stmt *)`
    /// override), and the walk recurses on the stack: for an enter() that
    /// keeps state which the visits of earlier statements change.
    bool EnterInOrder = false;
  };

  explicit StmtWalk(Options O) : Opts(O) {}
  StmtWalk() : StmtWalk(Options()) {}
  virtual ~StmtWalk();
  StmtWalk(const StmtWalk &) = delete;
  StmtWalk &operator=(const StmtWalk &) = delete;

  /// Walks \p S and what is under it; false when a hook ended the walk.
  /// True for null.
  bool walk(const clang::Stmt *S);
  /// Walks \p D and what is under it (RecursiveASTVisitor's TraverseDecl).
  bool walkDecl(const clang::Decl *D);

protected:
  /// Whether to walk \p S at all; when false neither \p S nor anything
  /// under it is visited, and the walk goes on with what follows (a
  /// `TraverseLambdaExpr(LambdaExpr *) { return true; }` override).
  virtual bool enter(clang::Stmt *S) { return true; }
  /// Each statement, outermost first; false ends the whole walk.
  virtual bool visit(clang::Stmt *S) { return true; }
  /// Whether to walk \p D at all (as enter() for statements).
  virtual bool enterDecl(clang::Decl *D) { return true; }
  /// Each declaration, outermost first; false ends the whole walk.
  virtual bool visitDecl(clang::Decl *D) { return true; }
  /// After the walk of \p D that enterDecl(D) let in, also when the walk
  /// ended inside it: for state kept while a declaration is walked.
  virtual void leaveDecl(clang::Decl *D) {}

  const Options &options() const { return Opts; }

private:
  class Impl;
  Options Opts;
};

} // namespace torch_tidy::analysis

#endif
