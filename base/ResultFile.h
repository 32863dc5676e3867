//===--- ResultFile.h - a translation unit's result as JSON -----*- C++ -*-===//
//
// What a worker process hands back to the process that started it: every
// diagnostic with its notes, ranges and fixes, the suppression counts, and
// the hashes of the files it analysed. Written atomically, read strictly.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_BASE_RESULTFILE_H
#define TORCH_TIDY_BASE_RESULTFILE_H

#include "base/UnitResult.h"
#include "llvm/Support/JSON.h"

namespace torch_tidy {

llvm::json::Value toJSON(const TUResult &R);
bool fromJSON(const llvm::json::Value &V, TUResult &R, std::string &Error);

} // namespace torch_tidy

#endif
