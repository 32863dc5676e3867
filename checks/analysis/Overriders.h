//===--- Overriders.h - The overriders of a virtual method in view --------===//
//
// A call of a virtual method runs the body of whichever class the object
// is: the method's own, or one of its overriders. The unit's classes
// (those of the user's headers it includes and its own, LibTorch's and the
// standard library's left out) say which overriders there are in view;
// the project may have more in units that this one does not include.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_ANALYSIS_OVERRIDERS_H
#define TORCH_TIDY_ANALYSIS_OVERRIDERS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

namespace torch_tidy::analysis {

class Overriders {
public:
  explicit Overriders(clang::ASTContext &Ctx) : Ctx(Ctx) {}

  /// Every method of a class of the user's in the unit that overrides
  /// \p Method, directly or through another override (class templates left
  /// out).
  llvm::ArrayRef<const clang::CXXMethodDecl *>
  of(const clang::CXXMethodDecl *Method);

  /// Whether a class of the user's in the unit derives from \p Class: the
  /// unit then has the hierarchy in view, not only its root.
  bool derivedInView(const clang::CXXRecordDecl *Class);

private:
  void index(const clang::DeclContext *DC);
  void ensureIndexed();

  clang::ASTContext &Ctx;
  bool Indexed = false;
  llvm::DenseSet<const clang::CXXRecordDecl *> Bases;
  llvm::DenseMap<const clang::CXXMethodDecl *,
                 llvm::SmallVector<const clang::CXXMethodDecl *, 2>>
      Direct;
  llvm::DenseMap<const clang::CXXMethodDecl *,
                 llvm::SmallVector<const clang::CXXMethodDecl *, 2>>
      All;
};

} // namespace torch_tidy::analysis

#endif
