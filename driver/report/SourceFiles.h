//===--- SourceFiles.h - file contents, lines and columns -------*- C++ -*-===//
//
// Reads each file a diagnostic names once, and turns byte offsets into the
// 1-based line and column clang prints.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_DRIVER_REPORT_SOURCEFILES_H
#define TORCH_TIDY_DRIVER_REPORT_SOURCEFILES_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace torch_tidy {

struct LineColumn {
  unsigned Line = 0, Column = 0;
};

class SourceFiles {
public:
  /// The absolute, normalised form of \p Path (relative paths are taken
  /// from \p BuildDir when given, else from the current directory).
  static std::string absolute(llvm::StringRef Path, llvm::StringRef BuildDir = "");

  /// The contents of \p Path, or null when it cannot be read.
  const std::string *contents(llvm::StringRef Path);
  LineColumn position(llvm::StringRef Path, unsigned Offset);
  /// The text of 1-based \p Line, without its line break; "" out of range.
  llvm::StringRef line(llvm::StringRef Path, unsigned Line);

private:
  struct Entry {
    bool Loaded = false, Readable = false;
    std::string Text;
    std::vector<unsigned> LineStarts;
  };
  Entry &load(llvm::StringRef Path);
  llvm::StringMap<Entry> Files;
};

} // namespace torch_tidy

#endif
