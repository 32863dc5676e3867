//===--- Units.cpp - stage 2: which units to analyse ----------------------===//

#include "driver/run/Units.h"

#include "checks/CheckTable.h"
#include "driver/report/SourceFiles.h"
#include "driver/run/IncludeScan.h"

#include "llvm/Support/FileSystem.h"
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

/// The first unit of \p DBFiles that includes \p Header, or "".
std::string unitIncluding(const std::string &Header,
                          const std::vector<std::string> &DBFiles,
                          const clang::tooling::CompilationDatabase &DB,
                          IncludeScanner &Scanner) {
  for (const std::string &TU : DBFiles)
    for (const clang::tooling::CompileCommand &C : DB.getCompileCommands(TU))
      if (Scanner.scan(C).Files.count(Header))
        return TU;
  return "";
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
