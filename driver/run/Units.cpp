//===--- Units.cpp - stage 2: which units to analyse ----------------------===//

#include "driver/run/Units.h"

#include "checks/CheckTable.h"
#include "driver/report/SourceFiles.h"
#include "driver/run/IncludeScan.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

namespace torch_tidy {
namespace {

bool isHeaderName(llvm::StringRef Path) {
  llvm::StringRef Ext = llvm::sys::path::extension(Path);
  return Ext.empty() || Ext == ".h" || Ext == ".hh" || Ext == ".hpp" ||
         Ext == ".hxx" || Ext == ".cuh" || Ext == ".inl" || Ext == ".ipp" ||
         Ext == ".tcc";
}

/// The files of the compilation database: absolute, sorted, once each.
std::vector<std::string>
databaseFiles(const clang::tooling::CompilationDatabase &DB) {
  std::vector<std::string> Files = DB.getAllFiles();
  for (std::string &F : Files)
    F = SourceFiles::absolute(F);
  llvm::sort(Files);
  Files.erase(std::unique(Files.begin(), Files.end()), Files.end());
  return Files;
}

bool isIdentifierChar(char C) {
  return llvm::isAlnum(C) || C == '_';
}

/// The names of the templates \p Text declares, classes and functions, by a
/// textual scan (`template <...>` and the declaration after it).
std::set<std::string> templateNames(llvm::StringRef Text) {
  std::set<std::string> Names;
  for (size_t Pos = Text.find("template"); Pos != llvm::StringRef::npos;
       Pos = Text.find("template", Pos + 1)) {
    if (Pos > 0 && isIdentifierChar(Text[Pos - 1]))
      continue;
    size_t I = Text.find_first_not_of(" \t\r\n", Pos + 8);
    if (I == llvm::StringRef::npos || Text[I] != '<')
      continue;
    // Past the parameter list, nested angle brackets and all.
    int Depth = 0;
    for (; I < Text.size(); ++I) {
      Depth += Text[I] == '<' ? 1 : Text[I] == '>' ? -1 : 0;
      if (Depth == 0)
        break;
    }
    size_t End = Text.find_first_of("({;=", I);
    if (End == llvm::StringRef::npos)
      break;
    llvm::StringRef Head = Text.slice(I + 1, End);
    llvm::SmallVector<llvm::StringRef, 8> Words;
    for (size_t W = 0; W < Head.size();) {
      while (W < Head.size() && !isIdentifierChar(Head[W]))
        ++W;
      size_t Start = W;
      while (W < Head.size() && isIdentifierChar(Head[W]))
        ++W;
      if (W > Start)
        Words.push_back(Head.slice(Start, W));
    }
    auto Kind = llvm::find_if(Words, [](llvm::StringRef W) {
      return W == "class" || W == "struct";
    });
    if (Kind != Words.end() && Kind + 1 != Words.end())
      Names.insert((Kind + 1)->str());
    else if (Text[End] == '(' && !Words.empty() &&
             !llvm::is_contained(Words, "operator"))
      Names.insert(Words.back().str());
  }
  return Names;
}

/// Whether \p Text names one of \p Names as a whole word.
bool mentionsAny(llvm::StringRef Text, const std::set<std::string> &Names) {
  for (const std::string &Name : Names)
    for (size_t Pos = Text.find(Name); Pos != llvm::StringRef::npos;
         Pos = Text.find(Name, Pos + 1)) {
      size_t After = Pos + Name.size();
      if ((Pos == 0 || !isIdentifierChar(Text[Pos - 1])) &&
          (After >= Text.size() || !isIdentifierChar(Text[After])))
        return true;
    }
  return false;
}

/// The unit of \p DBFiles to analyse \p Header through: the first that
/// includes it and, when the header declares templates, names one of them
/// in its own file (the templates are analysed in their instantiations);
/// else the first that includes it; else "".
std::string unitIncluding(const std::string &Header,
                          const std::vector<std::string> &DBFiles,
                          const clang::tooling::CompilationDatabase &DB,
                          IncludeScanner &Scanner) {
  std::set<std::string> Templates;
  if (auto Text = llvm::MemoryBuffer::getFile(Header, /*IsText=*/true))
    Templates = templateNames((*Text)->getBuffer());
  std::string First;
  for (const std::string &TU : DBFiles)
    for (const clang::tooling::CompileCommand &C : DB.getCompileCommands(TU)) {
      if (!Scanner.scan(C).Files.count(Header))
        continue;
      if (Templates.empty())
        return TU;
      if (First.empty())
        First = TU;
      auto Text = llvm::MemoryBuffer::getFile(TU, /*IsText=*/true);
      if (Text && mentionsAny((*Text)->getBuffer(), Templates))
        return TU;
      break;
    }
  return First;
}

/// The units for the files given: each file itself, or for a header, a
/// unit that includes it (reporting on the header).
void unitsOfFiles(const DriverOptions &O,
                  const clang::tooling::CompilationDatabase &DB,
                  const std::vector<std::string> &DBFiles,
                  IncludeScanner &Scanner, UnitSelection &Out) {
  std::set<std::string> InDB(DBFiles.begin(), DBFiles.end()), GivenUnits;
  for (const std::string &F : O.Files) {
    std::string Abs = SourceFiles::absolute(F);
    if (InDB.count(Abs) || !isHeaderName(Abs) || DBFiles.empty()) {
      Out.Units.push_back(Abs);
      GivenUnits.insert(Abs);
      continue;
    }
    std::string Unit = unitIncluding(Abs, DBFiles, DB, Scanner);
    if (Unit.empty()) {
      Out.Units.push_back(Abs); // flags inferred from a neighbouring file
      continue;
    }
    Out.Units.push_back(Unit);
    Out.OnlyFiles[Unit].insert(Abs);
  }
  // A unit given itself reports as usual (main file and header filter),
  // plus the headers it was also chosen for.
  for (auto &[Unit, Headers] : Out.OnlyFiles)
    if (GivenUnits.count(Unit))
      Headers.insert(Unit);
  std::set<std::string> Seen;
  llvm::erase_if(Out.Units,
                 [&](const std::string &U) { return !Seen.insert(U).second; });
}

/// Why unit \p U cannot be analysed at all, or "".
std::string unusable(const std::string &U,
                     const clang::tooling::CompilationDatabase &DB) {
  if (!llvm::sys::fs::is_regular_file(U))
    return "listed in the compilation database, but there is no such file";
  for (const clang::tooling::CompileCommand &C : DB.getCompileCommands(U))
    if (!llvm::sys::fs::is_directory(C.Directory))
      return "the compilation database runs its command in '" + C.Directory +
             "', which does not exist";
  return "";
}

/// Whether any compile command of \p U may reach a LibTorch header.
bool reachesTorch(const std::string &U,
                  const clang::tooling::CompilationDatabase &DB,
                  IncludeScanner &Scanner) {
  std::vector<clang::tooling::CompileCommand> Cmds = DB.getCompileCommands(U);
  bool Reaches = Cmds.empty();
  for (const clang::tooling::CompileCommand &C : Cmds)
    Reaches |= Scanner.scan(C).MayReachTorch;
  return Reaches;
}

} // namespace

bool selectUnits(const DriverOptions &O, RunSetup &S, UnitSelection &Out,
                 std::string &Error) {
  const clang::tooling::CompilationDatabase &DB = *S.Compilations;
  std::vector<std::string> DBFiles = databaseFiles(DB);
  IncludeScanner Scanner;
  if (!O.Files.empty()) {
    unitsOfFiles(O, DB, DBFiles, Scanner, Out);
  } else if (DBFiles.empty()) {
    Error = "the compilation database in " + O.BuildPath + " lists no files";
    return false;
  } else {
    Out.Units = DBFiles;
  }

  if (O.ShardCount) {
    std::vector<std::string> Mine;
    for (size_t I = 0; I < Out.Units.size(); ++I)
      if (I % O.ShardCount == O.ShardIndex)
        Mine.push_back(Out.Units[I]);
    Out.Units = std::move(Mine);
  }

  // The units' own .clang-tidy files must be valid too. A unit whose file
  // or working directory is gone fails alone.
  for (const std::string &U : Out.Units)
    if (!S.checkConfigsOf(U, Error))
      return false;
  llvm::erase_if(Out.Units, [&](const std::string &U) {
    std::string Why = unusable(U, DB);
    if (!Why.empty())
      Out.Unusable.push_back(TUResult::failure(U, Why));
    return !Why.empty();
  });

  // Units that cannot reach LibTorch cannot hold a finding of ours.
  bool OnlyTorchChecks = llvm::all_of(
      S.Enabled, [](const std::string &C) { return findCheck(C) != nullptr; });
  if (O.SkipTorchlessTUs && OnlyTorchChecks && !O.HasFixedFlags)
    llvm::erase_if(Out.Units, [&](const std::string &U) {
      bool Skip = !reachesTorch(U, DB, Scanner);
      Out.Skipped += Skip;
      return Skip;
    });
  return true;
}

} // namespace torch_tidy
