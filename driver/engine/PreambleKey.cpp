//===--- PreambleKey.cpp - which units may share a preamble ---------------===//

#include "driver/engine/PreambleKey.h"

#include "base/Hashing.h"
#include "driver/engine/PreambleExtent.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/PrecompiledPreamble.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <tuple>

using namespace clang;

namespace torch_tidy {
namespace {

bool isIncludeWord(llvm::StringRef W) {
  return W == "include" || W == "include_next" || W == "import" ||
         W == "__include_macros";
}

/// Follows the tokens of a preamble and notes the names it looks up next
/// to the main file, computed includes and line directives.
class DirectiveScan {
public:
  explicit DirectiveScan(PreambleShape &S) : S(S) {}

  void take(const Token &T, llvm::StringRef Spelling) {
    llvm::StringRef Word =
        T.is(tok::raw_identifier) ? T.getRawIdentifier() : "";
    if (State == Name || State == HasIncludeName) {
      if (T.is(tok::string_literal) && Spelling.size() >= 2)
        S.QuotedNames.push_back(Spelling.drop_front().drop_back().str());
      else if (T.isNot(tok::less))
        S.ComputedInclude = true;
      State = None;
    } else if (State == Directive) {
      State = isIncludeWord(Word) ? Name : None;
      S.LineDirective |= Word == "line" || T.is(tok::numeric_constant);
    } else if (State == HasInclude) {
      State = T.is(tok::l_paren) ? HasIncludeName : None;
    }
    if (Word == "__has_include" || Word == "__has_include_next")
      State = HasInclude;
    else if (T.is(tok::hash) && T.isAtStartOfLine())
      State = Directive;
  }

private:
  PreambleShape &S;
  enum { None, Directive, Name, HasInclude, HasIncludeName } State = None;
};

/// Whether argument \p I of a compile command names an output or the file
/// itself; \p Skip is set to the number of arguments it takes.
bool isOutputOrFile(llvm::ArrayRef<std::string> Args, size_t I,
                    llvm::StringRef File, size_t &Skip) {
  llvm::StringRef A = Args[I];
  Skip = 1;
  if (A == "-o" || A == "-MF" || A == "-MT" || A == "-MQ") {
    Skip = 2;
    return true;
  }
  return A == File || A == "-c" || A == "-MD" || A == "-MMD" ||
         (A.starts_with("-o") && A.size() > 2) || A.starts_with("-MF") ||
         A.starts_with("-MT") || A.starts_with("-MQ");
}

/// The name a -D or -U value defines or undefines: "N" of "N", "N=V" and
/// "N(A)=V".
llvm::StringRef macroName(llvm::StringRef Value) {
  return Value.take_until([](char C) { return C == '=' || C == '('; });
}

/// -D and -U of different macros commute, those of one macro do not: puts
/// \p Macros (name, argument) in the order of their names, keeping the
/// order of those of one name.
void sortByMacroName(
    std::vector<std::pair<llvm::StringRef, std::string>> &Macros) {
  std::vector<size_t> Order(Macros.size());
  for (size_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  std::sort(Order.begin(), Order.end(), [&](size_t L, size_t R) {
    return std::tie(Macros[L].first, L) < std::tie(Macros[R].first, R);
  });
  std::vector<std::pair<llvm::StringRef, std::string>> Sorted;
  for (size_t I : Order)
    Sorted.push_back(std::move(Macros[I]));
  Macros = std::move(Sorted);
}

} // namespace

PreambleShape shapeOf(llvm::StringRef Text, const LangOptions &LangOpts) {
  PreambleShape S;
  S.Size = Text.size();
  DirectiveScan Scan(S);
  forEachRawToken(Text, LangOpts, [&](const Token &T, unsigned Offset,
                                      llvm::StringRef Spelling) {
    S.Tokens.push_back({Offset, T.getLength()});
    S.Normalised += T.isAtStartOfLine()   ? '\n'
                    : T.hasLeadingSpace() ? ' '
                                          : '.';
    S.Normalised += std::to_string(Spelling.size()) + ":";
    S.Normalised += Spelling;
    Scan.take(T, Spelling);
  });
  return S;
}

std::string scopeOf(const PreambleShape &Shape, llvm::StringRef MainDir,
                    bool MSVCCompat) {
  if (Shape.ComputedInclude || MSVCCompat)
    return MainDir.str();
  for (const std::string &Name : Shape.QuotedNames) {
    llvm::SmallString<256> Path(MainDir);
    llvm::sys::path::append(Path, Name);
    if (llvm::sys::fs::exists(Path))
      return MainDir.str();
  }
  return "";
}

unsigned mapOffset(const PreambleShape &From, const PreambleShape &To,
                   unsigned Offset) {
  auto It = std::upper_bound(
      From.Tokens.begin(), From.Tokens.end(), Offset,
      [](unsigned O, const PreambleShape::Token &T) { return O < T.Offset; });
  if (It == From.Tokens.begin() || To.Tokens.size() != From.Tokens.size())
    return To.Tokens.empty() ? std::min(Offset, To.Size)
                             : std::min(Offset, To.Tokens.front().Offset);
  size_t I = It - From.Tokens.begin() - 1;
  unsigned Delta = Offset - From.Tokens[I].Offset;
  const PreambleShape::Token &T = To.Tokens[I];
  if (Delta <= T.Length)
    return T.Offset + Delta;
  // In the white space after token I: as far after it, up to the next one.
  unsigned Next = I + 1 < To.Tokens.size() ? To.Tokens[I + 1].Offset : To.Size;
  return std::min(T.Offset + Delta, Next);
}

std::vector<std::string> preambleFlags(const CompilerInvocation &Invocation) {
  llvm::StringSet<> Inputs;
  for (const FrontendInputFile &In : Invocation.getFrontendOpts().Inputs)
    if (In.isFile())
      Inputs.insert(In.getFile());
  // The -D and -U are taken from the options rather than the command line,
  // where a value of another option could look like one.
  CompilerInvocation WithoutMacros(Invocation);
  WithoutMacros.getPreprocessorOpts().Macros.clear();
  std::vector<std::string> Args = WithoutMacros.getCC1CommandLine(), Flags;
  for (size_t I = 0; I < Args.size(); ++I) {
    llvm::StringRef A = Args[I];
    if (A == "-main-file-name") {
      ++I;
      continue;
    }
    if (Inputs.contains(A) || A.starts_with("-fdebug-compilation-dir=") ||
        A.starts_with("-fcoverage-compilation-dir="))
      continue;
    Flags.push_back(A.str());
  }
  std::vector<std::pair<llvm::StringRef, std::string>> Macros;
  for (const auto &[Macro, IsUndef] : Invocation.getPreprocessorOpts().Macros)
    Macros.push_back({macroName(Macro), (IsUndef ? "-U" : "-D") + Macro});
  sortByMacroName(Macros);
  for (auto &[Name, Arg] : Macros)
    Flags.push_back(std::move(Arg));
  return Flags;
}

std::string preambleGroupHint(const tooling::CompileCommand &Command,
                              llvm::ArrayRef<std::string> ExtraArgsBefore,
                              llvm::ArrayRef<std::string> ExtraArgs) {
  llvm::SmallString<256> Main(Command.Filename);
  if (!llvm::sys::path::is_absolute(Main))
    llvm::sys::fs::make_absolute(Command.Directory, Main);
  auto Buffer = llvm::MemoryBuffer::getFile(Main, /*IsText=*/true);
  if (!Buffer)
    return "";
  LangOptions LangOpts;
  LangOpts.CPlusPlus = LangOpts.CPlusPlus11 = LangOpts.LineComment = true;
  // Where the preamble ends, guessed without the header search: a header
  // named <so> is taken for a library's, one named "so" for the project's.
  PreambleBounds Bounds = preambleBounds(
      LangOpts, **Buffer, [](const PreambleInclude &I) { return I.Angled; });
  if (Bounds.Size == 0)
    return "";
  llvm::StringRef Text = (*Buffer)->getBuffer().take_front(Bounds.Size);
  PreambleShape Shape = shapeOf(Text, LangOpts);
  CacheKey K("torch-tidy preamble group 1");
  K.add(Command.Directory);
  for (const std::string &A : ExtraArgsBefore)
    K.add(A);
  const std::vector<std::string> &Args = Command.CommandLine;
  std::vector<std::pair<llvm::StringRef, std::string>> Macros;
  for (size_t I = 0, Skip = 1; I < Args.size(); I += Skip) {
    if (isOutputOrFile(Args, I, Command.Filename, Skip) || Args[I] == Main)
      continue;
    llvm::StringRef A = Args[I];
    if ((A.starts_with("-D") || A.starts_with("-U")) &&
        (A.size() > 2 || I + 1 < Args.size())) {
      llvm::StringRef Value = A.size() > 2 ? A.drop_front(2) : Args[I + 1];
      Skip = A.size() > 2 ? 1 : 2;
      Macros.push_back({macroName(Value), (A.take_front(2) + Value).str()});
      continue;
    }
    K.add(A);
  }
  sortByMacroName(Macros);
  for (const auto &[Name, Arg] : Macros)
    K.add(Arg);
  for (const std::string &A : ExtraArgs)
    K.add(A);
  K.add(Shape.Normalised);
  K.add(Bounds.PreambleEndsAtStartOfLine ? "line start" : "mid-line");
  K.add(Shape.LineDirective ? Text : "");
  K.add(scopeOf(Shape, llvm::sys::path::parent_path(Main), false));
  return K.hex();
}

} // namespace torch_tidy
