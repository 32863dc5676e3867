//===--- DefaultChecks.h - the torch checks when nobody names checks -*- C++ -*-===//
//
// torch-tidy is run to find torch's leaks: with no -checks and no
// configuration that names checks (a .clang-tidy on the way to the file,
// --config, --config-file), it runs the torch checks instead of clang-tidy's
// default set. Whatever the user names wins, with clang-tidy's own default
// underneath, exactly as in clang-tidy.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_DRIVER_RUN_DEFAULTCHECKS_H
#define TORCH_TIDY_DRIVER_RUN_DEFAULTCHECKS_H

#include "clang-tidy/ClangTidyOptions.h"

#include <memory>

namespace torch_tidy {

/// The check set used when nobody names checks.
extern const char TorchDefaultChecks[];

/// Whether -checks or a configuration that applies to \p File names checks.
bool userNamesChecks(clang::tidy::ClangTidyOptionsProvider &Provider,
                     llvm::StringRef File);

/// \p Inner, with TorchDefaultChecks as the default check set of every file
/// whose configuration names none.
std::unique_ptr<clang::tidy::ClangTidyOptionsProvider>
withTorchChecksByDefault(
    std::unique_ptr<clang::tidy::ClangTidyOptionsProvider> Inner);

} // namespace torch_tidy

#endif
