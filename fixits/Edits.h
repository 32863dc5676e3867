//===--- Edits.h - Building fix-its as token-range edits ------------------===//
//
// The edits torch-tidy's checks propose, built from token ranges of the
// written code. Each returns std::nullopt where the edit cannot be made
// safely (inside a macro expansion, ranges that are not in one file), so a
// check then reports without a fix.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_FIXITS_EDITS_H
#define TORCH_TIDY_FIXITS_EDITS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/Diagnostic.h"
#include "llvm/ADT/StringSet.h"

#include <optional>

namespace torch_tidy::fixits {

/// Whether any part of \p Range comes from a macro expansion.
bool isInMacro(clang::SourceRange Range);

/// Removes argument \p Index of \p Call together with the comma (and any
/// comment) that separates it from the argument before it. Only for an
/// argument that is not the first one and not followed by another written
/// argument.
std::optional<clang::FixItHint> removeTrailingArgument(const clang::CallExpr *Call,
                                                       unsigned Index,
                                                       const clang::ASTContext &Ctx);

/// Replaces the written argument \p Arg with \p Text.
std::optional<clang::FixItHint> replaceExpr(const clang::Expr *Arg,
                                            llvm::StringRef Text,
                                            const clang::ASTContext &Ctx);

/// Turns a temporary object written as `Type()`, `Type{}` or `Type(args)`
/// into a declaration `Type Name;` / `Type Name(args)`. \p TypeRange is the
/// written type, \p InitRange its parentheses or braces.
std::optional<clang::FixItHint> nameTemporary(clang::SourceRange TypeRange,
                                              clang::SourceRange InitRange,
                                              bool HasArguments,
                                              llvm::StringRef Name,
                                              const clang::ASTContext &Ctx);

/// `Type;` -> `Type Name;`: a statement that names a type and declares
/// nothing (\p TypeRange, the name as written) declares \p Name.
std::optional<clang::FixItHint> nameDeclaration(clang::SourceRange TypeRange,
                                                llvm::StringRef Name,
                                                const clang::ASTContext &Ctx);

/// Appends `.detach()` to the tensor expression \p E, with parentheses where
/// the expression is not a postfix expression already.
std::optional<clang::FixItHint> appendDetach(const clang::Expr *E,
                                             const clang::ASTContext &Ctx);

/// Inserts \p Declaration (e.g. `torch::NoGradGuard no_grad;`) as a new line
/// after the statement \p After, indented like it.
std::optional<clang::FixItHint> insertLineAfter(const clang::Stmt *After,
                                                llvm::StringRef Declaration,
                                                const clang::ASTContext &Ctx);

/// Inserts \p Declaration as the first statement of \p Body.
std::optional<clang::FixItHint> insertAtStart(const clang::CompoundStmt *Body,
                                              llvm::StringRef Declaration,
                                              const clang::ASTContext &Ctx);

/// Inserts \p Line as a new line before the statement \p Before, indented
/// like it.
std::optional<clang::FixItHint> insertLineBefore(const clang::Stmt *Before,
                                                 llvm::StringRef Line,
                                                 const clang::ASTContext &Ctx);

/// Inserts \p Line as the last statement of \p Body, indented like the
/// statement before it (a block whose closing brace is on a line of its own).
std::optional<clang::FixItHint> insertAtEnd(const clang::CompoundStmt *Body,
                                            llvm::StringRef Line,
                                            const clang::ASTContext &Ctx);

/// Every name declared in, or referred to by, \p Function (its own name and
/// parameters included): a new local there must neither redeclare nor
/// shadow any of them.
llvm::StringSet<> namesUsedIn(const clang::FunctionDecl *Function);

/// \p Base, or \p Base with the smallest suffix _2, _3, ... that is not in
/// \p Taken.
std::string freshName(llvm::StringRef Base, const llvm::StringSet<> &Taken);

} // namespace torch_tidy::fixits

#endif
