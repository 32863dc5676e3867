// The shared walk (checks/analysis/Walk.h): what a StmtWalk's hooks are
// asked, in order (test/tools/WalkProbes.cpp prints it).
// RUN: %analysis_dump %s -- -std=c++17 | FileCheck %s --match-full-lines

void probe_walk();
void probe_walk_in_order();
void f(int);
int g(int);
int skip(int);
void stop();

void order(int x) {
  // Pre-order: a statement, then its children in order. enter() is asked of
  // all the children of a statement before the first of them is walked...
  f(g(x));
  // CHECK: [[@LINE+1]]:3: walk=>f CallExpr(f) >g ImplicitCastExpr DeclRefExpr(f) CallExpr(g) ImplicitCastExpr DeclRefExpr(g) ImplicitCastExpr DeclRefExpr(x)
  probe_walk();
  // ... or, with EnterInOrder, of each just before it is walked.
  f(g(x));
  // CHECK: [[@LINE+1]]:3: walk=>f CallExpr(f) ImplicitCastExpr DeclRefExpr(f) >g CallExpr(g) ImplicitCastExpr DeclRefExpr(g) ImplicitCastExpr DeclRefExpr(x)
  probe_walk_in_order();
  // Declarations in their place, each left after its initializer.
  {
    int a = g(x), b = a;
    f(b);
  }
  // CHECK: [[@LINE+1]]:3: walk=CompoundStmt >f DeclStmt Var(a) >g CallExpr(g) ImplicitCastExpr DeclRefExpr(g) ImplicitCastExpr DeclRefExpr(x) /Var(a) Var(b) ImplicitCastExpr DeclRefExpr(a) /Var(b) CallExpr(f) ImplicitCastExpr DeclRefExpr(f) ImplicitCastExpr DeclRefExpr(b)
  probe_walk();
  // A statement not entered is not visited, nor anything under it; the walk
  // goes on after it.
  f(skip(g(x)) + g(x));
  // CHECK: [[@LINE+1]]:3: walk=>f CallExpr(f) ImplicitCastExpr DeclRefExpr(f) BinaryOperator >skip >g CallExpr(g) ImplicitCastExpr DeclRefExpr(g) ImplicitCastExpr DeclRefExpr(x)
  probe_walk();
  // A visit that returns false ends the whole walk.
  {
    f(1);
    stop();
    f(2);
  }
  // CHECK: [[@LINE+1]]:3: walk=CompoundStmt >f >stop >f CallExpr(f) ImplicitCastExpr DeclRefExpr(f) IntegerLiteral CallExpr(stop) ended
  probe_walk();
}
