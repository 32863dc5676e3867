//===--- UnnamedGradGuardCheck.h - torch-unnamed-grad-guard ---------------===//
#ifndef TORCH_TIDY_CHECKS_UNNAMEDGRADGUARDCHECK_H
#define TORCH_TIDY_CHECKS_UNNAMEDGRADGUARDCHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSet.h"

namespace torch_tidy {

/// Flags a grad-mode guard (torch::NoGradGuard, c10::InferenceMode,
/// torch::AutoGradMode) constructed as a temporary, which is destroyed at the
/// end of its statement, named in a statement that declares no object
/// (`torch::NoGradGuard;`), or declared with empty parentheses, which
/// declare a function (`torch::NoGradGuard guard();`), and so protects
/// nothing.
class UnnamedGradGuardCheck : public clang::tidy::ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  bool isLanguageVersionSupported(const clang::LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus;
  }
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  /// `torch::NoGradGuard;` in \p Block: a guard type named, no object.
  void checkNamesWithoutObject(const clang::CompoundStmt *Block,
                               clang::ASTContext &Ctx);
  /// `torch::NoGradGuard guard();` in a function: a function declared,
  /// no guard built.
  void checkFunctionDeclaration(const clang::FunctionDecl *Declared,
                                clang::ASTContext &Ctx);
  /// A fresh name for a guard of \p Kind in \p Function.
  std::string nameFor(const clang::FunctionDecl *Function, llvm::StringRef Base);
  /// Names this check's fixes have given in each function, so that two
  /// fixes in one function never pick the same name.
  llvm::DenseMap<const clang::FunctionDecl *, llvm::StringSet<>> NamesGiven;
};

} // namespace torch_tidy

#endif
