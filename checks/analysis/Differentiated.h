//===--- Differentiated.h - D: does a value reach a backward pass? --------===//
//
// Whether the history of a value is wanted: a backward pass walks it. The
// value is followed, in its function, into the variables it is stored in
// and those computed from them; out of the function through its return
// value, to every call site in the unit; into members and globals that a
// backward pass of the unit walks; and into functions it is handed to. A
// value handed to a function whose body is not in the unit, or returned by
// a function whose callers are not all known (in the unit, or in other
// units as the function summaries say), may be differentiated there;
// unless no unit of the project trains, as the summaries say, when
// nothing out of view is taken to differentiate anything.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_ANALYSIS_DIFFERENTIATED_H
#define TORCH_TIDY_ANALYSIS_DIFFERENTIATED_H

#include "checks/analysis/GradGuard.h"
#include "checks/analysis/TensorSources.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

#include <map>
#include <string>
#include <vector>

namespace torch_tidy::analysis {

class HistoryAnalysis;

/// Whether a backward pass may walk the history of \p E's value. With
/// \p OpaqueCallsMay, a function whose body is not in the unit may
/// differentiate what it is handed, unless its summary says it does not;
/// otherwise only what is seen counts (a body in the unit). In a project
/// that trains nowhere (HistoryAnalysis::projectTrainsNowhere), code out of
/// view, and callers out of view, are taken to differentiate nothing;
/// \p AssumedUntrained, when given, says whether a "no" rested on that.
bool mayBeDifferentiated(const clang::Expr *E, clang::ASTContext &Ctx,
                         const CallSites &Callers, bool OpaqueCallsMay,
                         HistoryAnalysis *History = nullptr,
                         bool *AssumedUntrained = nullptr);

/// Whether a backward pass may walk what the call \p Site returns: its
/// caller, and their callers, are asked as above; a caller that the unit
/// never calls may have callers elsewhere that do.
bool callerMayDifferentiate(const clang::CallExpr *Site, clang::ASTContext &Ctx,
                            const CallSites &Callers, bool OpaqueCallsMay,
                            HistoryAnalysis *History = nullptr);

/// Whether the call \p Call may differentiate what it is handed as its
/// argument \p Arg (counted as Call->getArg does): a function of the unit
/// whose body does, one of another unit with \p OpaqueCallsMay (unless its
/// summary says it does not), the closures a std::function may run (those
/// in view as functions are; any other as an opaque one).
bool argumentMayBeDifferentiated(const clang::CallExpr *Call, unsigned Arg,
                                 clang::ASTContext &Ctx,
                                 const CallSites &Callers, bool OpaqueCallsMay,
                                 HistoryAnalysis *History = nullptr);

/// The expressions of the user's code in the unit (lambdas and template
/// instantiations included, system headers not) that name a member of a
/// class of the user's holding tensors, or records of them, by member.
std::map<const clang::FieldDecl *, std::vector<const clang::MemberExpr *>>
tensorMemberReads(clang::ASTContext &Ctx);

/// Whether one of \p Reads, expressions naming one member, may have what
/// the member holds differentiated (mayBeDifferentiated, a function out of
/// view counting as one that may); \p At gets the first that may.
bool memberReadMayBeDifferentiated(
    llvm::ArrayRef<const clang::MemberExpr *> Reads, clang::ASTContext &Ctx,
    const CallSites &Callers, HistoryAnalysis *History,
    const clang::MemberExpr **At = nullptr);

/// What the reads of member \p Field do with what it holds: in the unit as
/// it is now (memberReadMayBeDifferentiated over tensorMemberReads, both
/// kept by \p History for the unit), and in the other units as the
/// function summaries say.
struct MemberReadUse {
  /// One read at least may be differentiated, here or elsewhere.
  bool Differentiated = false;
  /// What the summaries say of its reads in the project; null when they
  /// describe none (what no read differentiates is then not known to be
  /// dropped).
  const UsedSummary *Summarised = nullptr;
};
/// With \p OnlySummarised, a member the summaries describe no read of is
/// answered at once (Summarised null), without reading the unit.
MemberReadUse memberReadUse(const clang::FieldDecl *Field,
                            clang::ASTContext &Ctx, const CallSites &Callers,
                            HistoryAnalysis &History,
                            bool OnlySummarised = false);

/// Whether \p Def, whose body is in the unit, may differentiate what its
/// parameter \p Param is handed: a backward pass walks it or what is
/// computed from it, a member that a backward pass of the unit walks keeps
/// it, or it is handed on to a function that may (one whose body is in
/// another unit may, unless the function summaries say otherwise). What
/// the function summaries record for each parameter of the unit's
/// functions. Without \p OpaqueCallsMay, code out of view counts for
/// nothing: only what the code in view does (what the summaries record as
/// differentiated in view).
bool parameterMayBeDifferentiated(const clang::FunctionDecl *Def,
                                  const clang::ParmVarDecl *Param,
                                  clang::ASTContext &Ctx,
                                  const CallSites &Callers,
                                  HistoryAnalysis *History = nullptr,
                                  bool OpaqueCallsMay = true);

/// Whether \p E's history is thrown away: the value, and what is computed
/// from it, stay in variables of its function's own frame (or in a private
/// member that only its class, all of it in view, reads and none of it
/// hands out but by returning what it computes from it to callers that
/// drop that in turn; or in a member whose every read, in the unit and in
/// the other units as the function summaries say, differentiates nothing
/// of what it holds), and nothing may differentiate them (a function
/// whose body is not in the unit may). What
/// the function returns, or writes into an out-parameter (a non-const
/// tensor reference), is followed to every call site when every call is
/// known (not a virtual method; for a returned value, the calls in other
/// units count when their summaries say none differentiates it), up to
/// three callers out, and must be dropped there in turn. Only numbers read
/// from it (`item()`, `argmax`, sizes, a printout) or detached copies
/// leave. \p Holders, when given, receives the variables of \p E's own
/// function that hold it; \p ThroughCallers, whether callers had to be
/// followed; \p ElsewhereAt, where the first call in another unit that
/// the summaries answered for is (`file:line:column`), or ""; \p ReadAt,
/// when the answer rests on what the summaries say of a member's reads,
/// where the first of them is, or "". In a project that trains nowhere
/// (HistoryAnalysis::projectTrainsNowhere), callers that are not seen at
/// all and code out of view are taken to drop what they get;
/// \p AssumedUntrained, when given, says whether a "yes" rested on that.
bool historyDiscarded(const clang::Expr *E, clang::ASTContext &Ctx,
                      const CallSites &Callers, DeclSet *Holders = nullptr,
                      HistoryAnalysis *History = nullptr,
                      bool *ThroughCallers = nullptr,
                      std::string *ElsewhereAt = nullptr,
                      std::string *ReadAt = nullptr,
                      bool *AssumedUntrained = nullptr);

/// Whether \p E's history (an expression of function \p Function) leaves
/// the function through a return statement: what it returns is computed
/// from \p E other than through a copy cut from the graph (a decoder that
/// returns the `argmax` tokens of its forward's logits returns none).
bool returnsHistoryOf(const clang::Expr *E, const clang::FunctionDecl *Function,
                      clang::ASTContext &Ctx);

/// Whether \p E's value (an expression of function \p Function) leaves the
/// function through a return statement.
bool isReturned(const clang::Expr *E, const clang::FunctionDecl *Function,
                clang::ASTContext &Ctx);

} // namespace torch_tidy::analysis

#endif
