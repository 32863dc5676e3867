//===--- ExprUtils.h - Small questions about expressions ------------------===//
#ifndef TORCH_TIDY_ANALYSIS_EXPRUTILS_H
#define TORCH_TIDY_ANALYSIS_EXPRUTILS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ParentMapContext.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace torch_tidy::analysis {

/// \p E without parentheses, implicit casts, temporaries, cleanups,
/// functional casts and copy/move constructions.
const clang::Expr *stripWrappers(const clang::Expr *E);

/// The variable, field or structured binding \p E names (`x`, `this->x`,
/// `obj.x`), if it names one.
const clang::ValueDecl *referencedDecl(const clang::Expr *E);

/// The local variable whose field (or field of a field) \p E is:
/// `output` of `output.values`, `out.a.b`; null for anything else (a
/// member of `this`, a field reached through a pointer).
const clang::VarDecl *localStructOf(const clang::Expr *E);

/// The local structs an assignment to \p Target writes a field of: that of
/// `out.values`, and those of each element of a `std::tie(out.state,
/// out.reward)`.
llvm::SmallVector<const clang::VarDecl *, 2>
localStructsWrittenBy(const clang::Expr *Target);

/// The variables a `std::tie(a, b)` or `std::forward_as_tuple(a,
/// std::tie(b, c))` expression binds, if \p E is one.
llvm::SmallVector<const clang::ValueDecl *, 4> tiedDecls(const clang::Expr *E);

/// The same, each with the index of the element it is bound to; -1 for a
/// variable inside a nested tie.
llvm::SmallVector<std::pair<const clang::ValueDecl *, int>, 4>
tiedElements(const clang::Expr *E);

/// The object an element access refers into: `buf` for `buf[i]`,
/// `buf.at(i)`, `buf.index(...)`, `buf.select(...)`, `buf.narrow(...)`;
/// \p E itself otherwise.
const clang::Expr *containerOf(const clang::Expr *E);

/// The nearest node of type \p T above \p Node (following the first
/// parent), within \p MaxDepth steps; nullptr if none.
template <typename T, typename NodeT>
const T *nearestAncestor(const NodeT &Node, clang::ASTContext &Ctx,
                         unsigned MaxDepth = 256) {
  clang::DynTypedNode Current = clang::DynTypedNode::create(Node);
  for (unsigned Depth = 0; Depth < MaxDepth; ++Depth) {
    auto Parents = Ctx.getParents(Current);
    if (Parents.empty())
      return nullptr;
    Current = Parents[0];
    if (const auto *Found = Current.template get<T>())
      return Found;
  }
  return nullptr;
}

/// The top-level declarations of the user's code: the AST's traversal scope
/// where the front end has set one (torch-tidy and clangd limit it to the
/// user's declarations), else every top-level declaration outside system
/// headers. Walking these, not every declaration of <torch/torch.h>, keeps
/// unit-wide questions cheap.
std::vector<clang::Decl *> userDecls(clang::ASTContext &Ctx);

/// Whether \p Inner is \p Outer or inside it.
bool contains(const clang::Stmt *Outer, const clang::Stmt *Inner);

/// The values the return statements of \p Body return, not counting those
/// of the lambdas it defines.
llvm::SmallVector<const clang::Expr *, 4> returnedValues(const clang::Stmt *Body);

/// Whether \p E refers to \p D anywhere inside it.
bool mentions(const clang::Stmt *S, const clang::ValueDecl *D);

/// Where the closure of a lambda is handed: the first construction around
/// it that the caller's predicate takes (a std::thread, a test framework's
/// object), else the call it is an argument of. Both are null when it is
/// held in a variable, returned, or called nowhere in view.
struct ClosureHandOff {
  const clang::CallExpr *Call = nullptr;
  const clang::CXXConstructExpr *Construct = nullptr;
};

/// Follows \p Lambda up through casts, temporaries and the constructions
/// \p Takes does not take (a copy of the closure, a std::function around
/// it) to where it is handed.
ClosureHandOff
closureHandOff(const clang::LambdaExpr *Lambda, clang::ASTContext &Ctx,
               llvm::function_ref<bool(const clang::CXXConstructExpr *)> Takes);

/// The lambda \p E stands for: one written there, or converted to a
/// std::function (or another one-argument construction) there, or held by a
/// local variable initialised with one; null for anything else.
const clang::LambdaExpr *lambdaHeldBy(const clang::Expr *E);

/// The argument that call \p Call passes for parameter \p Index of its
/// callee (for a call of an operator() that is a member, the object is not
/// counted), or nullptr; a default argument too with \p Defaults.
const clang::Expr *argumentFor(const clang::CallExpr *Call, unsigned Index,
                               bool Defaults = false);

/// `std::get<N>(t)`: N, when \p FD is that function.
std::optional<unsigned> stdGetIndex(const clang::FunctionDecl *FD);

/// Whether a parameter or variable of type \p T lets its holder write
/// what it is bound to: an lvalue reference to something not const.
bool isMutableReference(clang::QualType T);

/// Whether \p T points to something not const.
bool isMutablePointer(clang::QualType T);

} // namespace torch_tidy::analysis

#endif
