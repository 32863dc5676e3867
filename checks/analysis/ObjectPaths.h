//===--- ObjectPaths.h - Which object an expression names -----------------===//
//
// The objects of training code (a model, its submodules, an optimizer) are
// named through chains of members and handles: `model->backbone->fc`,
// `this->net`, `trainer.optimizer`. An object path is that chain of
// declarations, from the variable (or `this`) it starts at to the member it
// ends in, so that two calls can be asked whether they act on the same
// object, or on an object and a part of it.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_ANALYSIS_OBJECTPATHS_H
#define TORCH_TIDY_ANALYSIS_OBJECTPATHS_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace torch_tidy::analysis {

/// The declarations an object expression goes through, outermost first.
/// `this` (written or implied) is a null first element:
/// `model->backbone->eval()` names {model, backbone}, `net_->train()` in a
/// method {null, net_}.
struct ObjectPath {
  llvm::SmallVector<const clang::ValueDecl *, 4> Decls;
  /// False when the expression is not such a chain (an element of a
  /// container, the result of a call): nothing is known of its object.
  bool Known = false;

  bool operator==(const ObjectPath &Other) const {
    return Known && Other.Known && Decls == Other.Decls;
  }
  /// The object the chain ends at, or null (`this`, or not known).
  const clang::ValueDecl *leaf() const {
    return Known && !Decls.empty() ? Decls.back() : nullptr;
  }
  /// `model.backbone`, `this.net`, `?` when not known.
  std::string str() const;
};

/// The object path of \p Object, the object of a method call or an
/// argument. Handles are looked through: `->` and `*` of a ModuleHolder or
/// smart pointer, `.ptr()`, `.get()`.
ObjectPath objectPath(const clang::Expr *Object);

/// Whether \p Owner is \p Part or an object that holds it: its path is a
/// prefix of \p Part's (`model` holds `model->backbone`).
bool ownsOrIs(const ObjectPath &Owner, const ObjectPath &Part);

/// Whether one of \p A and \p B holds the other (or they are the same).
bool overlap(const ObjectPath &A, const ObjectPath &B);

/// \p InCallee, a path written in the body of the function that \p Call
/// runs, as the caller names it: a path that starts at a parameter starts at
/// the argument; one that starts at `this` (in a method, not a lambda)
/// starts at the object the method is called on. A path that starts at a
/// local of the callee is not known to the caller.
ObjectPath asCallerNames(const ObjectPath &InCallee, const clang::CallExpr *Call);

/// Whether \p A and \p B may name the same object although their paths
/// differ: one starts at a local that only refers to an object declared
/// elsewhere (a reference, a pointer, or a copy of a ModuleHolder or
/// shared pointer, which share the object they copy).
bool mayAlias(const ObjectPath &A, const ObjectPath &B);

} // namespace torch_tidy::analysis

#endif
