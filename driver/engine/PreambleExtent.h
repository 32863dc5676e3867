//===--- PreambleExtent.h - where a unit's preamble ends --------*- C++ -*-===//
//
// A preamble is worth precompiling for what rarely changes: LibTorch, the
// standard library, other installed libraries. A project's own headers
// change while people work, and one in the preamble makes every edit of it
// rebuild the whole preamble (LibTorch included) for each group of units
// that includes it. So a unit's preamble ends before the first of its
// leading #include directives that names a project header after one that
// names a library header: the project headers from there on are parsed with
// the unit's own code. A unit whose leading includes are all project
// headers, or begin with them (its own header first), keeps Clang's whole
// preamble up to the first project header that follows a library one.
//
// Which is which follows the unit's own header search. A library header is
// found in a system include directory (-isystem, the toolchain's,
// -idirafter), or through -I in a directory outside the project, taken to
// be the deepest directory that holds both the unit and the compile's
// working directory (a LibTorch unpacked in /opt and named with -I). A
// project header is found next to the unit, through -iquote, or through -I
// in the project; a header not found counts as one too. Where the preamble
// ends never changes a result, only what is parsed once and what is parsed
// per unit.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_DRIVER_ENGINE_PREAMBLEEXTENT_H
#define TORCH_TIDY_DRIVER_ENGINE_PREAMBLEEXTENT_H

#include "clang/Basic/LangOptions.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace clang {
class HeaderSearchOptions;
} // namespace clang

namespace llvm {
class MemoryBuffer;
namespace vfs {
class FileSystem;
} // namespace vfs
} // namespace llvm

namespace torch_tidy {

/// One #include (#include_next, #import) among a preamble's directives.
struct PreambleInclude {
  /// What it names, without the quotes or angle brackets; empty for a
  /// computed include (a macro), whose header is unknown.
  std::string Name;
  bool Angled = false;
  /// Where the preamble would end to leave it out: its '#', or the '#' of
  /// the outermost conditional directive it is inside.
  unsigned Cut = 0;
  /// Its own '#'.
  unsigned Offset = 0;
};

/// Calls \p Take with each token of \p Text as the raw lexer sees it (comments
/// are not tokens), with its offset and spelling.
void forEachRawToken(
    llvm::StringRef Text, const clang::LangOptions &LangOpts,
    llvm::function_ref<void(const clang::Token &, unsigned Offset,
                            llvm::StringRef Spelling)>
        Take);

/// The #include directives of \p Text (a preamble), in order.
std::vector<PreambleInclude> preambleIncludes(llvm::StringRef Text,
                                              const clang::LangOptions &LangOpts);

/// Whether an include names a library header.
using IsLibraryInclude = llvm::function_ref<bool(const PreambleInclude &)>;

/// Clang's preamble bounds of \p Buffer, ended before the first include
/// that \p IsLibrary says is not a library header and that follows, outside
/// any conditional they share, an include of one that is.
clang::PreambleBounds preambleBounds(const clang::LangOptions &LangOpts,
                                     const llvm::MemoryBuffer &Buffer,
                                     IsLibraryInclude IsLibrary);

/// Finds where the preprocessor would find an include's header, as the
/// header search of \p Options does for a main file in \p MainDir
/// compiled in \p WorkingDir (both absolute), and says whether it is a
/// library header.
class LibraryHeaderLookup {
public:
  LibraryHeaderLookup(const clang::HeaderSearchOptions &Options,
                      llvm::StringRef MainDir, llvm::StringRef WorkingDir,
                      llvm::vfs::FileSystem &FS);
  bool operator()(const PreambleInclude &Include) const;

private:
  struct Directory {
    std::string Path;
    bool Library;
  };
  std::vector<Directory> Quoted, Searched;
  std::string MainDir;
  llvm::vfs::FileSystem &FS;
};

} // namespace torch_tidy

#endif
