//===--- PreambleKey.h - which units may share a preamble -------*- C++ -*-===//
//
// Units whose preambles are the same directives, compiled with the same
// flags, share one precompiled preamble. "The same directives" is decided on
// the preamble's tokens as the preprocessor sees them (each token's text and
// whether it starts a line or follows white space), so a file's own comments
// and layout do not stop it from sharing; the offsets that differ are mapped
// back (mapOffset). The flags are the compiler invocation's, without the
// ones that only name the main file or where output goes.
//
// The directory of the main file matters only to an #include "name" (or
// __has_include) that the preprocessor looks up there first: a unit whose
// directory holds such a name gets a preamble of its directory (scopeOf).
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_DRIVER_ENGINE_PREAMBLEKEY_H
#define TORCH_TIDY_DRIVER_ENGINE_PREAMBLEKEY_H

#include "clang/Basic/LangOptions.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace clang {
class CompilerInvocation;
} // namespace clang

namespace torch_tidy {

/// A preamble's text as the preprocessor sees it.
struct PreambleShape {
  struct Token {
    unsigned Offset, Length;
  };
  /// Every token of the text, in order (comments are not tokens), and the
  /// text's length.
  std::vector<Token> Tokens;
  unsigned Size = 0;
  /// What two preambles must have in common to share a precompiled one:
  /// each token's text, after a line break when it starts a line, after a
  /// space when white space or a comment precedes it.
  std::string Normalised;
  /// The names of #include "name" and __has_include("name"), which are
  /// looked up next to the main file first.
  std::vector<std::string> QuotedNames;
  /// An #include or __has_include of a macro: what it names is unknown.
  bool ComputedInclude = false;
  /// A #line directive or a line marker: presumed lines and file names
  /// depend on where each directive is.
  bool LineDirective = false;
};

/// The shape of \p Text, a preamble lexed with \p LangOpts.
PreambleShape shapeOf(llvm::StringRef Text, const clang::LangOptions &LangOpts);

/// The directory a preamble of \p Shape depends on, for a main file in
/// \p MainDir (absolute): "" when none (no quoted name exists there, no
/// computed include, no MSVC-style lookup through the includers), else
/// \p MainDir.
std::string scopeOf(const PreambleShape &Shape, llvm::StringRef MainDir,
                    bool MSVCCompat);

/// The offset in \p To's text of what is at \p Offset in \p From's text;
/// both have the same Normalised text.
unsigned mapOffset(const PreambleShape &From, const PreambleShape &To,
                   unsigned Offset);

/// The flags of \p Invocation that decide what its preamble is: its
/// command line (Clang's -cc1 one, generated from the parsed options, so
/// options given in another order give the same flags; lists whose order
/// matters, such as include directories, keep theirs) without the main
/// file, -main-file-name and the compilation directories (the working
/// directory is keyed apart). The -D and -U come last, in the order of the
/// macros' names: those of different macros commute, those of one macro
/// keep their order ("-DA -UA" is not "-UA -DA").
std::vector<std::string>
preambleFlags(const clang::CompilerInvocation &Invocation);

/// For scheduling a run: a text that units sharing a preamble have in
/// common, or "" when \p Command's file has no preamble. Made from the
/// compile command as written (without its file and outputs; its -D and -U
/// ordered as preambleFlags orders them), the extra arguments of the
/// configuration, the normalised preamble and its scope;
/// the engine decides exactly, so a wrong guess costs time, never a result.
std::string preambleGroupHint(const clang::tooling::CompileCommand &Command,
                              llvm::ArrayRef<std::string> ExtraArgsBefore,
                              llvm::ArrayRef<std::string> ExtraArgs);

} // namespace torch_tidy

#endif
