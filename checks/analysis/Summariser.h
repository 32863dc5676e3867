//===--- Summariser.h - A unit's function summaries, made with H, D, O -*- C++ -*-===//
//
// What the functions of one unit return, what its calls of other units'
// functions pass them and do with their results, and what its methods may
// leave in members: the summaries (SummaryData.h) that H, D and O of
// another unit answer from.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_CHECKS_ANALYSIS_SUMMARISER_H
#define TORCH_TIDY_CHECKS_ANALYSIS_SUMMARISER_H

#include "checks/analysis/History.h"
#include "checks/analysis/SummaryData.h"
#include "clang/AST/ASTContext.h"

namespace torch_tidy::analysis {

/// The summaries of the unit whose AST is \p Ctx: what its functions that
/// another unit may call (defined out of line in the main file, externally
/// visible, not templates) return, when that may hold tensors; what its
/// calls of functions whose bodies it does not have pass them, when that
/// carries history, and whether they may differentiate what those return;
/// and which members of the classes whose methods it defines those methods
/// may leave holding history.
FunctionSummaries summariseUnit(clang::ASTContext &Ctx, HistoryOptions Options);

} // namespace torch_tidy::analysis

#endif
