//===--- IncludeScan.h - which files a translation unit reaches -*- C++ -*-===//
//
// A fast, conservative scan of #include lines (conditionals ignored, so it
// sees at least every file the preprocessor would). It answers two
// questions: can this translation unit reach LibTorch (a torch, ATen or c10
// header, or any file mentioning them)? And which of the user's files does
// it include? When unsure (an include it cannot resolve by a name that could
// be LibTorch, a computed #include), it answers "reaches LibTorch".
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_DRIVER_RUN_INCLUDESCAN_H
#define TORCH_TIDY_DRIVER_RUN_INCLUDESCAN_H

#include "clang/Tooling/CompilationDatabase.h"
#include <map>
#include <set>
#include <string>
#include <vector>

namespace torch_tidy {

class IncludeScanner {
public:
  struct Reach {
    bool MayReachTorch = false;
    std::set<std::string> Files; // absolute paths of the files reached
  };

  /// Scans the translation unit of \p Command.
  Reach scan(const clang::tooling::CompileCommand &Command);

private:
  struct FileFacts {
    bool Read = false;
    bool MentionsTorch = false;
    bool HasComputedInclude = false;
    std::vector<std::pair<std::string, bool>> Includes; // name, angled
  };
  const FileFacts &facts(const std::string &Path);
  std::map<std::string, FileFacts> Cache;
};

/// Whether \p Spelled (an #include name) names a LibTorch header.
bool isTorchHeaderName(llvm::StringRef Spelled);

} // namespace torch_tidy

#endif
