//===--- Outlives.h - O: does the target outlive the iteration? -----------===//
//
// A write keeps what it stores beyond the current iteration when its target
// is a variable declared outside the innermost loop that runs the write; a
// data member, global or static (these outlive each call, loop or not); a
// parameter passed by reference (the caller's object); or an element of any
// of these; or the object of a method, when its class is itself a container
// of tensors. Bounded on purpose, and so excused: a target whose graph a
// backward pass consumes after the loop (unrolled BPTT, micro-batch
// accumulation), a member (or the field of a member that the write goes
// through) that the translation unit both backpropagates through and clears
// (REINFORCE-style log-probability lists), a target
// cleared before the store on every iteration, and a by-reference
// parameter of a function that trains nothing, unless a call site in view
// hands it an object that outlives the caller's iteration.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_ANALYSIS_OUTLIVES_H
#define TORCH_TIDY_ANALYSIS_OUTLIVES_H

#include "checks/analysis/ObjectPaths.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/ArrayRef.h"

#include <optional>
#include <string>

namespace torch_tidy::analysis {

class HistoryAnalysis;

struct Lifetime {
  enum KindT {
    Loop, ///< a local declared outside the loop that runs the write
    Call, ///< a member, global, static or by-reference parameter
  } Kind;
  const clang::ValueDecl *Target; ///< the variable or field written
  const clang::Stmt *LoopStmt;    ///< the innermost loop around the write, if any
  /// The object of the method itself (`push_back(t)`, `(*this)[k] = t` in
  /// a class derived from a container of tensors), when Target is null.
  const clang::CXXRecordDecl *Self = nullptr;
  /// For a member or global written through a field of its own
  /// (`policy_.saved_log_probs.push_back(t)`, Target `policy_`): that field,
  /// the part of the object that holds what is stored, and how the write
  /// names it (`this.policy_.saved_log_probs`).
  const clang::ValueDecl *Part = nullptr;
  ObjectPath PartPath = {};

  /// How messages name the target: its name, or `*this`.
  std::string name() const;
};

/// O: whether the object \p Target (an lvalue expression) outlives the
/// iteration, or the call, in which \p At runs. When \p Values, what \p At
/// stores, are all parts (elements, views) of variables that a loop does
/// not write, that loop makes no new graph per iteration, and the loop
/// around it is the one that counts.
std::optional<Lifetime>
outlivesIteration(const clang::Expr *Target, const clang::Stmt *At,
                  clang::ASTContext &Ctx,
                  llvm::ArrayRef<const clang::Expr *> Values = {});

/// Whether the history that \p L's target gathers is bounded on purpose: a
/// backward pass consumes it after the loop, or in the loop before the target
/// is reset (gradient accumulation); the loop builds its function's returned
/// result (the caller decides, unless the loop runs its model as evaluation
/// code, the result takes only one element: see pickedForResult, or the
/// callers read only numbers from it: see resultKeptForNothing); a module's
/// state is stepped through a sequence that the module
/// can reset; the target is cleared before the store on every run of the
/// block that repeats it; or the target is a by-reference parameter left to
/// the caller (keepingCallSite finds none, and the function trains nothing).
bool isBoundedOnPurpose(const Lifetime &L, const clang::Stmt *At,
                        clang::ASTContext &Ctx, HistoryAnalysis &History);

/// Where the callers of a function read only numbers from its result: the
/// unit's first call of it, or else (`file:line:column`) a call in another
/// unit that the summaries describe.
struct DiscardedResult {
  const clang::CallExpr *Site = nullptr;
  std::string Elsewhere;
};

/// For \p L, a local that a loop fills to build its function's returned
/// result, when the function is called and no call of it may differentiate
/// what it returns (the unit's calls, and those of other units as the
/// summaries say), and the value stored at \p At carries a graph made in
/// the call (H asked as if the parameters carried nothing; slices of what
/// the caller passed keep only the caller's graph): where a caller reads
/// only numbers from it. Each stored graph is then kept for nothing until
/// the caller drops the result.
std::optional<DiscardedResult> resultKeptForNothing(const Lifetime &L,
                                                   const clang::Stmt *At,
                                                   clang::ASTContext &Ctx,
                                                   HistoryAnalysis &History);

/// For \p L, a member of a module that the method of \p At carries from
/// one call to the next and that another method of the module resets (a
/// recurrent state stepped through a sequence), when that method returns
/// tensors and every call of it in view (the unit's, and those of other
/// units as the summaries say) reads only numbers from what it returns:
/// where one such call is. Nothing walks the chain the state carries, which
/// grows until the reset for nothing.
std::optional<DiscardedResult> stateKeptForNothing(const Lifetime &L,
                                                  const clang::Stmt *At,
                                                  clang::ASTContext &Ctx,
                                                  HistoryAnalysis &History);

/// For a write that replaces the element of \p L's target, a standard
/// container, at \p Key (`m["loss"] = t`, `v.at(0) = t`,
/// `m.insert_or_assign(k, t)`): whether it writes a new slot each time it
/// runs, and so keeps what earlier runs stored. The key is the same on every
/// iteration of a loop when it names nothing the loop declares or writes;
/// \p L's loop is then the enclosing loop where the key changes, if any.
/// For a target that outlives the call, only a constant key is the same on
/// every call. False when the key is the same every time: each write drops
/// the graph the previous one stored, and nothing grows.
bool writesNewSlot(Lifetime &L, const clang::Expr *Key, clang::ASTContext &Ctx);

/// For \p L, a local that a loop fills, one element of which, picked
/// outside any loop (`return v[best];`), is all that reaches its function's
/// result, while each stored element has a graph of its own (not a state the
/// loop carries): that pick; nullptr otherwise. Every other element's graph
/// is kept until the function returns, for nothing, and a detach where the
/// loop stores would change what the function returns.
const clang::Expr *pickedForResult(const Lifetime &L, const clang::Stmt *At,
                                   clang::ASTContext &Ctx);

/// For \p L, a parameter passed by reference or pointer (the caller's
/// object): a call site in the unit whose argument outlives the caller's
/// own iteration or call, unbounded; nullptr when none in view does. A
/// function that trains nothing itself leaves what it stores there to its
/// caller, as it does a returned result.
const clang::CallExpr *keepingCallSite(const Lifetime &L, clang::ASTContext &Ctx,
                                       HistoryAnalysis &History,
                                       unsigned Depth = 0);

/// A statement that clears or replaces \p L's target with a value that
/// does not come from it (`clear()`, `reset()`, `t = fresh`): in the
/// function for a local, anywhere in the unit otherwise; nullptr if none.
/// Such a target is bounded, though what it holds lives until then.
const clang::Stmt *resetOf(const Lifetime &L, const clang::Stmt *At,
                           clang::ASTContext &Ctx);

} // namespace torch_tidy::analysis

#endif
