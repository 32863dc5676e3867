//===--- PreambleExtent.cpp - where a unit's preamble ends ----------------===//

#include "driver/engine/PreambleExtent.h"

#include "clang/Frontend/PrecompiledPreamble.h"
#include "clang/Lex/HeaderSearchOptions.h"
#include "llvm/ADT/SmallString.h"
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
                              IsSystemInclude IsSystem) {
  PreambleBounds Whole = ComputePreambleBounds(LangOpts, Buffer, 0);
  if (Whole.Size == 0)
    return Whole;
  std::vector<PreambleInclude> Includes = preambleIncludes(
      Buffer.getBuffer().take_front(Whole.Size), LangOpts);
  // The first system include, by where it is.
  unsigned FirstSystem = ~0u;
  for (const PreambleInclude &I : Includes) {
    if (IsSystem(I)) {
      FirstSystem = std::min(FirstSystem, I.Offset);
      continue;
    }
    // A cut inside a conditional goes before it: a system include in the
    // same conditional does not count.
    if (FirstSystem < I.Cut)
      return PreambleBounds(I.Cut, /*PreambleEndsAtStartOfLine=*/true);
  }
  return Whole;
}

SystemHeaderLookup::SystemHeaderLookup(const HeaderSearchOptions &Options,
                                       llvm::StringRef MainDir,
                                       llvm::vfs::FileSystem &FS)
    : MainDir(MainDir.str()), FS(FS) {
  auto PathOf = [&](const HeaderSearchOptions::Entry &E) {
    if (E.IgnoreSysRoot || Options.Sysroot.empty() || Options.Sysroot == "/" ||
        !llvm::sys::path::is_absolute(E.Path))
      return E.Path;
    return Options.Sysroot + E.Path;
  };
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
  // A directory given both as -I and as a system directory is a system
  // one: Clang drops the -I.
  for (Directory &D : Angled)
    D.System = std::any_of(System.begin(), System.end(),
                           [&](const Directory &S) { return S.Path == D.Path; });
  Searched = std::move(Angled);
  Searched.insert(Searched.end(), System.begin(), System.end());
  Searched.insert(Searched.end(), After.begin(), After.end());
}

bool SystemHeaderLookup::operator()(const PreambleInclude &Include) const {
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
      return D.System;
  return false;
}

} // namespace torch_tidy
