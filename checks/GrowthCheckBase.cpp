//===--- GrowthCheckBase.cpp - What the growth checks share as checks -----===//

#include "checks/GrowthCheckBase.h"

#include "checks/HistoryOptions.h"

namespace torch_tidy {

GrowthCheckBase::GrowthCheckBase(llvm::StringRef Name,
                         clang::tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      HistoryOpts(readHistoryOptions(Options, Context->getCurrentFile(), HistoryError)),
      NodeOnly(Options.get("NodeOnlyFindings", "warning")) {
  if (!HistoryError.empty())
    configurationDiag("%0") << HistoryError;
  if (!NodeOnly.valid())
    configurationDiag("invalid NodeOnlyFindings '%0': expected warning, "
                      "remark or none")
        << NodeOnly.setting();
}

void GrowthCheckBase::storeOptions(clang::tidy::ClangTidyOptions::OptionMap &Opts) {
  storeHistoryOptions(Options, Opts, HistoryOpts);
  Options.store(Opts, "NodeOnlyFindings", NodeOnly.setting());
}

} // namespace torch_tidy
