//===--- LoopScope.h - Which loop runs a statement every iteration --------===//
//
// The innermost `for`, `while`, `do` or range-`for` whose iterations run a
// statement. A lambda's body belongs to a loop only where the lambda is also
// invoked in that loop (called on the spot, or through the variable that
// holds it); a lambda that is only defined there runs whenever its holder
// decides.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_ANALYSIS_LOOPSCOPE_H
#define TORCH_TIDY_ANALYSIS_LOOPSCOPE_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"

namespace torch_tidy::analysis {

/// Whether \p S is a for, while, do or range-for statement.
bool isLoop(const clang::Stmt *S);

/// The body of loop \p Loop.
const clang::Stmt *loopBody(const clang::Stmt *Loop);

/// The innermost loop whose every iteration runs \p S, or nullptr.
const clang::Stmt *innermostLoop(const clang::Stmt *S, clang::ASTContext &Ctx);

/// Where \p S runs in the function that defines the lambdas around it: \p S
/// itself, or, for a statement inside a lambda, the calls of that lambda
/// (on the spot, or through the variable that holds it), recursively. Empty
/// when a lambda around it is handed elsewhere.
llvm::SmallVector<const clang::Stmt *, 4> runsAt(const clang::Stmt *S,
                                                 clang::ASTContext &Ctx);

/// The function, method or lambda call operator whose body contains \p S.
const clang::FunctionDecl *enclosingFunction(const clang::Stmt *S,
                                             clang::ASTContext &Ctx);

/// Whether \p S is in the pattern of a template (a function template, a
/// member function of a class template, a lambda in either) that the unit
/// instantiates: its instantiations show what it does with every type
/// known, where the pattern leaves calls on dependent values unresolved (a
/// `loss.backward()` whose `loss` has a dependent type is no call of
/// backward there).
bool inInstantiatedTemplate(const clang::Stmt *S, clang::ASTContext &Ctx);

/// The instantiations with a body that the unit makes of \p Pattern, a
/// function template's pattern or a member function of a class template;
/// empty for any other function.
llvm::SmallVector<const clang::FunctionDecl *, 2>
instantiationsOf(const clang::FunctionDecl *Pattern);

/// The body of the function, method or lambda that contains \p S.
const clang::Stmt *enclosingFunctionBody(const clang::Stmt *S,
                                         clang::ASTContext &Ctx);

/// Whether \p S runs on every iteration of \p Loop that reaches the end of
/// its body: \p S is in the body, in the same function, and under no
/// condition of its own (an `if` or `switch`, a `?:` branch, the right of
/// `&&` or `||`, a nested loop's body, a `catch`). An early `continue`
/// before it is not counted.
bool runsEveryIteration(const clang::Stmt *S, const clang::Stmt *Loop,
                        clang::ASTContext &Ctx);

} // namespace torch_tidy::analysis

#endif
