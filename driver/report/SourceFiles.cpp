//===--- SourceFiles.cpp - file contents, lines and columns ---------------===//

#include "driver/report/SourceFiles.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <algorithm>

namespace torch_tidy {

std::string SourceFiles::absolute(llvm::StringRef Path, llvm::StringRef BuildDir) {
  llvm::SmallString<256> P(Path);
  if (!llvm::sys::path::is_absolute(P)) {
    if (!BuildDir.empty()) {
      llvm::SmallString<256> B(BuildDir);
      llvm::sys::path::append(B, P);
      P = B;
    }
    llvm::sys::fs::make_absolute(P);
  }
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  return std::string(P);
}

SourceFiles::Entry &SourceFiles::load(llvm::StringRef Path) {
  Entry &E = Files[Path];
  if (E.Loaded)
    return E;
  E.Loaded = true;
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return E;
  E.Readable = true;
  E.Text = (*Buffer)->getBuffer().str();
  E.LineStarts.push_back(0);
  for (unsigned I = 0; I < E.Text.size(); ++I)
    if (E.Text[I] == '\n')
      E.LineStarts.push_back(I + 1);
  return E;
}

const std::string *SourceFiles::contents(llvm::StringRef Path) {
  Entry &E = load(Path);
  return E.Readable ? &E.Text : nullptr;
}

LineColumn SourceFiles::position(llvm::StringRef Path, unsigned Offset) {
  Entry &E = load(Path);
  if (!E.Readable)
    return {};
  auto It = std::upper_bound(E.LineStarts.begin(), E.LineStarts.end(), Offset);
  unsigned Line = static_cast<unsigned>(It - E.LineStarts.begin());
  return {Line, Offset - E.LineStarts[Line - 1] + 1};
}

llvm::StringRef SourceFiles::line(llvm::StringRef Path, unsigned Line) {
  Entry &E = load(Path);
  if (!E.Readable || Line == 0 || Line > E.LineStarts.size())
    return "";
  unsigned Begin = E.LineStarts[Line - 1];
  unsigned End = Line < E.LineStarts.size() ? E.LineStarts[Line] : E.Text.size();
  llvm::StringRef L(E.Text.data() + Begin, End - Begin);
  return L.rtrim("\r\n");
}

} // namespace torch_tidy
