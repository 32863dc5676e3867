//===--- GradGuard.h - G: is a no-grad guard active here? -----------------===//
//
// The guard question every check asks: at this statement, does LibTorch
// record an autograd graph? A named local torch::NoGradGuard,
// c10::InferenceMode (any spelling) or AutoGradMode(false) in an enclosing
// scope, or GradMode::set_enabled(false) earlier on the same path and not
// re-enabled, turns recording off. A guard built as an unnamed temporary
// protects nothing. Guards are per thread: the search stops at a lambda handed
// to another thread (std::thread, std::async, a thread pool); at::launch
// carries grad mode over.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_ANALYSIS_GRADGUARD_H
#define TORCH_TIDY_ANALYSIS_GRADGUARD_H

#include "checks/analysis/CallSites.h"
#include "checks/analysis/Names.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

namespace torch_tidy::analysis {

/// The LibTorch guard classes, by what they are derived from.
enum class GuardKind { None, NoGrad, InferenceMode, AutoGradMode };

/// Which guard class \p T is (a guard, or a class derived from one).
GuardKind guardKindOfType(clang::QualType T);

/// The grad mode a guard object sets while it lives.
enum class GuardEffect {
  DisablesGrad, ///< NoGradGuard, InferenceMode(), AutoGradMode(false)
  EnablesGrad,  ///< AutoGradMode(true)
  NoChange,     ///< InferenceMode(false)
  Unknown,      ///< the argument is not a constant
};

/// What constructing a guard with \p Construct does; std::nullopt when it
/// does not construct a guard (nor a class holding one as a member).
std::optional<GuardEffect>
guardEffectOfConstruction(const clang::CXXConstructExpr *Construct,
                          const clang::ASTContext &Ctx);

/// Whether \p Call is `GradMode::set_enabled(...)`, and with what.
std::optional<GuardEffect> gradModeSetCall(const clang::CallExpr *Call,
                                           const clang::ASTContext &Ctx);

/// A statement of a block that names a guard type and declares nothing
/// (`torch::NoGradGuard;`): clang accepts it with a warning ("declaration
/// does not declare anything") and builds no node for it, so it guards
/// nothing.
struct GuardWithoutObject {
  clang::SourceRange Name; ///< the type's name, as written
  GuardKind Kind;          ///< NoGrad or InferenceMode
};

/// Every such statement of \p Block, in order: found in the text between
/// the block's statements (outside macros and preprocessor directives) and
/// resolved, name by name, to a guard type from where the block is.
llvm::SmallVector<GuardWithoutObject, 1>
guardsWithoutObject(const clang::CompoundStmt *Block, clang::ASTContext &Ctx);

/// Whether \p Body (its nested blocks too) holds a guard that torch-unnamed-
/// grad-guard's fix will give a name (`no_grad`, `inference_mode`,
/// `grad_mode`): a guard built with no variable to hold it (a temporary
/// statement, and, more cautiously, one passed on as an argument), or a
/// statement naming a guard type with no object. A fix that declares a
/// guard of its own in \p Body keeps clear of those names.
bool holdsGuardsTheUnnamedFixNames(const clang::Stmt *Body,
                                   clang::ASTContext &Ctx);

/// Whether \p FD is a guard written with empty parentheses in a function
/// (`torch::NoGradGuard guard();`): C++ reads it as the declaration of a
/// function returning a guard (the most vexing parse), so no guard is built.
/// Only a guard those parentheses would have built counts (not
/// AutoGradMode, which needs an argument).
bool isGuardDeclaredAsFunction(const clang::FunctionDecl *FD);

/// Whether autograd records a graph when \p S runs.
enum class GradState {
  Recording,    ///< no guard is active
  NotRecording, ///< a guard or set_enabled(false) is active on every path
  Unknown,      ///< the state depends on a value or a branch
};

/// Whether \p Lambda is handed to something that runs it on another thread:
/// std::thread, std::jthread, std::async, std::packaged_task, a thread pool
/// (`pool.enqueue(f)`, `boost::asio::post(pool, f)`: a guess from names,
/// \p Names). Grad mode is thread-local, so no guard of the code that starts
/// it reaches its body. (at::launch carries grad mode over, so it does not
/// count.)
bool runsOnAnotherThread(const clang::LambdaExpr *Lambda, clang::ASTContext &Ctx,
                         const NameGuesses &Names);

/// The call that hands \p Lambda to another thread, if it is a call (a
/// construction such as std::thread's is returned in \p Construct).
/// \p ByName, when given, says whether that call is a thread pool's by the
/// guess from names.
const clang::CallExpr *threadHandOff(const clang::LambdaExpr *Lambda,
                                     clang::ASTContext &Ctx,
                                     const clang::CXXConstructExpr **Construct,
                                     const NameGuesses &Names,
                                     bool *ByName = nullptr);

/// G: the grad state at \p S, from the guards of the enclosing scopes of
/// its function (lambdas included, unless handed to a new thread) and, with
/// \p Callers, from the call sites of the function: it runs guarded when all
/// of them are guarded.
GradState gradStateAt(const clang::Stmt *S, clang::ASTContext &Ctx,
                      const CallSites *Callers, const NameGuesses &Names);

} // namespace torch_tidy::analysis

#endif
