//===--- PreambleExtent.cpp - where a unit's preamble ends ----------------===//

#include "driver/engine/PreambleExtent.h"

#include "clang/Frontend/PrecompiledPreamble.h"
#include "clang/Lex/HeaderSearchOptions.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <algorithm>

using namespace clang;

namespace torch_tidy {

void forEachRawToken(
    llvm::StringRef Text, const LangOptions &LangOpts,
    llvm::function_ref<void(const Token &, unsigned, llvm::StringRef)> Take) {
  // The lexer needs a terminating NUL after the text.
  std::string Copy = Text.str();
  Lexer L(SourceLocation(), LangOpts, Copy.data(), Copy.data(),
          Copy.data() + Copy.size());
  Token T;
  while (true) {
    L.LexFromRawLexer(T);
    if (T.is(tok::eof))
      return;
    unsigned End = L.getCurrentBufferOffset();
    unsigned Offset = End - T.getLength();
    Take(T, Offset, Text.slice(Offset, End));
  }
}

std::vector<PreambleInclude> preambleIncludes(llvm::StringRef Text,
                                              const LangOptions &LangOpts) {
  std::vector<PreambleInclude> Includes;
  // The '#' of each conditional directive still open.
  std::vector<unsigned> Open;
  enum { None, Directive, Name, AngledName } State = None;
  unsigned Hash = 0, NameStart = 0;
  auto Add = [&](llvm::StringRef HeaderName, bool Angled) {
    PreambleInclude I;
    I.Name = HeaderName.str();
    I.Angled = Angled;
    I.Offset = Hash;
    I.Cut = Open.empty() ? Hash : Open.front();
    Includes.push_back(std::move(I));
  };
  forEachRawToken(Text, LangOpts, [&](const Token &T, unsigned Offset,
                                      llvm::StringRef Spelling) {
    if (State == AngledName && T.isAtStartOfLine()) {
      Add("", false); // "<name" with no '>' on the line: malformed.
      State = None;
    }
    if (T.is(tok::hash) && T.isAtStartOfLine()) {
      State = Directive;
      Hash = Offset;
      return;
    }
    llvm::StringRef Word =
        T.is(tok::raw_identifier) ? T.getRawIdentifier() : "";
    switch (State) {
    case Directive:
      State = None;
      if (Word == "include" || Word == "include_next" || Word == "import")
        State = Name;
      else if (Word == "if" || Word == "ifdef" || Word == "ifndef")
        Open.push_back(Hash);
      else if (Word == "endif" && !Open.empty())
        Open.pop_back();
      break;
    case Name:
      State = None;
      if (T.is(tok::string_literal) && Spelling.size() >= 2)
        Add(Spelling.drop_front().drop_back(), false);
      else if (T.is(tok::less)) {
        State = AngledName;
        NameStart = Offset + Spelling.size();
      } else
        Add("", false); // A macro: what it names is unknown.
      break;
    case AngledName:
      if (T.is(tok::greater)) {
        Add(Text.slice(NameStart, Offset).trim(), true);
        State = None;
      }
      break;
    case None:
      break;
    }
  });
  if (State == AngledName)
    Add("", false);
  return Includes;
}

PreambleBounds preambleBounds(const LangOptions &LangOpts,
                              const llvm::MemoryBuffer &Buffer,
                              IsLibraryInclude IsLibrary) {
  PreambleBounds Whole = ComputePreambleBounds(LangOpts, Buffer, 0);
  if (Whole.Size == 0)
    return Whole;
  std::vector<PreambleInclude> Includes = preambleIncludes(
      Buffer.getBuffer().take_front(Whole.Size), LangOpts);
  // The first library include, by where it is.
  unsigned FirstLibrary = ~0u;
  for (const PreambleInclude &I : Includes) {
    if (IsLibrary(I)) {
      FirstLibrary = std::min(FirstLibrary, I.Offset);
      continue;
    }
    // A cut inside a conditional goes before it: a library include in the
    // same conditional does not count.
    if (FirstLibrary < I.Cut)
      return PreambleBounds(I.Cut, /*PreambleEndsAtStartOfLine=*/true);
  }
  return Whole;
}

namespace {

/// \p Path with its symbolic links and "." and ".." resolved, or as it is
/// when it does not exist.
std::string realPath(llvm::StringRef Path) {
  llvm::SmallString<256> Real;
  if (llvm::sys::fs::real_path(Path, Real))
    return Path.str();
  return std::string(Real);
}

/// The deepest directory that holds both \p A and \p B (real paths); ""
/// when that is the root.
std::string commonDirectory(llvm::StringRef A, llvm::StringRef B) {
  llvm::SmallString<256> Common;
  auto IA = llvm::sys::path::begin(A), EA = llvm::sys::path::end(A);
  auto IB = llvm::sys::path::begin(B), EB = llvm::sys::path::end(B);
  unsigned Parts = 0;
  for (; IA != EA && IB != EB && *IA == *IB; ++IA, ++IB, ++Parts)
    llvm::sys::path::append(Common, *IA);
  // The root alone ("/") holds everything: no project.
  return Parts > 1 ? std::string(Common) : "";
}

bool isWithin(llvm::StringRef Path, llvm::StringRef Dir) {
  return !Dir.empty() && Path.starts_with(Dir) &&
         (Path.size() == Dir.size() ||
          llvm::sys::path::is_separator(Path[Dir.size()]));
}

} // namespace

LibraryHeaderLookup::LibraryHeaderLookup(const HeaderSearchOptions &Options,
                                         llvm::StringRef MainDir,
                                         llvm::StringRef WorkingDir,
                                         llvm::vfs::FileSystem &FS)
    : MainDir(MainDir.str()), FS(FS) {
  auto PathOf = [&](const HeaderSearchOptions::Entry &E) {
    llvm::SmallString<256> Path(E.Path);
    if (!E.IgnoreSysRoot && !Options.Sysroot.empty() &&
        Options.Sysroot != "/" && llvm::sys::path::is_absolute(E.Path))
      Path = Options.Sysroot + E.Path;
    if (!llvm::sys::path::is_absolute(Path))
      llvm::sys::fs::make_absolute(WorkingDir, Path);
    return std::string(Path);
  };
  std::string Project =
      commonDirectory(realPath(MainDir), realPath(WorkingDir));
  // The order of Clang's header search: -iquote (for "name" only), -I,
  // the system directories, -idirafter. Framework directories are left
  // out: a header that only one of them holds is not found, so it counts
  // as a project header, which can only end a preamble early.
  std::vector<Directory> Angled, System, After;
  for (const HeaderSearchOptions::Entry &E : Options.UserEntries) {
    if (E.IsFramework)
      continue;
    switch (E.Group) {
    case frontend::Quoted:
      Quoted.push_back({PathOf(E), false});
      break;
    case frontend::Angled:
    case frontend::IndexHeaderMap:
      Angled.push_back({PathOf(E), false});
      break;
    case frontend::After:
      After.push_back({PathOf(E), true});
      break;
    default:
      System.push_back({PathOf(E), true});
      break;
    }
  }
  // A -I directory outside the project holds a library; so does one also
  // given as a system directory (Clang drops the -I).
  for (Directory &D : Angled)
    D.Library = !isWithin(realPath(D.Path), Project) ||
                std::any_of(System.begin(), System.end(),
                            [&](const Directory &S) { return S.Path == D.Path; });
  Searched = std::move(Angled);
  Searched.insert(Searched.end(), System.begin(), System.end());
  Searched.insert(Searched.end(), After.begin(), After.end());
}

bool LibraryHeaderLookup::operator()(const PreambleInclude &Include) const {
  if (Include.Name.empty() || llvm::sys::path::is_absolute(Include.Name))
    return false;
  auto Holds = [&](llvm::StringRef Dir) {
    llvm::SmallString<256> Path(Dir);
    llvm::sys::path::append(Path, Include.Name);
    return FS.exists(Path);
  };
  if (!Include.Angled) {
    if (Holds(MainDir))
      return false;
    for (const Directory &D : Quoted)
      if (Holds(D.Path))
        return false;
  }
  for (const Directory &D : Searched)
    if (Holds(D.Path))
      return D.Library;
  return false;
}

} // namespace torch_tidy
