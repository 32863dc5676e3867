//===--- PreambleLocations.h - findings of a unit that read a shared PCH -*- C++
//-*-===//
//
// A unit that reads a shared preamble sees the preamble's part of its main
// file under the PCH's name for it, with its builder's layout: a note that
// points at a macro defined among the unit's leading directives, or a fix
// there, names that file at the builder's offsets. These are put back in
// the unit's own file, at the same token there, so that findings are the
// ones a whole parse gives.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_DRIVER_ENGINE_PREAMBLELOCATIONS_H
#define TORCH_TIDY_DRIVER_ENGINE_PREAMBLELOCATIONS_H

#include "driver/engine/PreambleCache.h"

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"

#include <vector>

namespace torch_tidy {

/// Moves every location, range and fix of \p Errors in \p P's main file
/// (P.MainPath, a shared preamble's) to the same place in \p UnitMain.
void mapPreambleLocations(std::vector<clang::tidy::ClangTidyError> &Errors,
                          const Preamble &P, llvm::StringRef UnitMain);

} // namespace torch_tidy

#endif
