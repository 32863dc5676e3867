//===--- AtomicWrite.h - files replaced whole or not at all -----*- C++ -*-===//
//
// Every file torch-tidy writes (fixed sources, exported fixes, SARIF,
// baselines, cache entries, worker results, verify's program copies) goes
// through writeAtomically: a temporary file in the same folder, the old
// file's mode, then a rename, so that no reader and no signal ever sees a
// half-written file.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_BASE_ATOMICWRITE_H
#define TORCH_TIDY_BASE_ATOMICWRITE_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace torch_tidy {

/// Writes \p Text to \p Path atomically (temporary file in the same
/// directory, same mode, rename); a signal never leaves a partial file.
/// \p Path "-" writes to standard output. False and \p Error set on failure.
bool writeAtomically(llvm::StringRef Path, llvm::StringRef Text,
                     std::string &Error);

} // namespace torch_tidy

#endif
