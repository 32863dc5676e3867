//===--- Analysis.cpp - what verify runs, and where -----------------------===//

#include "runtime_verify/command/Analysis.h"

#include "base/Paths.h"
#include "base/Process.h"

#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/Support/FileSystem.h"

namespace torch_tidy::verify {

namespace fs = llvm::sys::fs;

llvm::Expected<WorkFolder> WorkFolder::make(const std::string &KeepDir) {
  if (!KeepDir.empty()) {
    if (std::error_code EC = fs::create_directories(KeepDir))
      return llvm::createStringError(EC, "cannot create " + KeepDir + ": " +
                                             EC.message());
    return WorkFolder(KeepDir, /*Keep=*/true);
  }
  llvm::SmallString<256> Dir;
  if (std::error_code EC = fs::createUniqueDirectory("torch-tidy-verify", Dir))
    return llvm::createStringError(EC, "cannot create a temporary folder: " +
                                           EC.message());
  return WorkFolder(std::string(Dir), /*Keep=*/false);
}

WorkFolder::WorkFolder(WorkFolder &&Other) noexcept
    : Path(std::move(Other.Path)), Keep(Other.Keep) {
  Other.Path.clear();
}

WorkFolder::~WorkFolder() {
  if (!Path.empty() && !Keep)
    fs::remove_directories(Path);
}

llvm::Expected<std::vector<Finding>> analyse(const AnalysisRequest &Request,
                                             llvm::StringRef Code) {
  std::string Yaml = joinPath(Request.WorkDir, "findings.yaml");
  std::string Log = joinPath(Request.WorkDir, "analysis.log");
  std::vector<std::string> Argv = {Request.Self,
                                   "-checks=" + verifiableChecksFilter(),
                                   "--export-fixes=" + Yaml};
  if (!Request.BuildDir.empty())
    Argv.push_back("-p=" + Request.BuildDir);
  Argv.push_back(Request.File);
  if (Request.BuildDir.empty()) {
    Argv.push_back("--");
    Argv.insert(Argv.end(), Request.Flags.begin(), Request.Flags.end());
  }
  ProcessOptions P;
  P.StdoutPath = Log;
  P.StderrPath = "=stdout";
  ProcessResult R = runProcess(Argv, P);
  if (!R.Started || R.Signal || R.TimedOut || R.ExitCode > 1)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "the analysis of " + Request.ShownName + " failed (" + R.describe() +
            (Request.ShowLog ? "; log: " + Log : "") + ")");
  return readFindings(Yaml, Request.File, Code);
}

/// The compile command's flags for File, without the compiler, the file
/// and the output.
llvm::Expected<std::vector<std::string>> flagsFromDatabase(const std::string &BuildDir,
                                                           const std::string &File) {
  std::string Error;
  auto DB = clang::tooling::JSONCompilationDatabase::loadFromDirectory(BuildDir, Error);
  if (!DB)
    return llvm::createStringError(llvm::inconvertibleErrorCode(), Error);
  std::vector<clang::tooling::CompileCommand> Commands = DB->getCompileCommands(File);
  if (Commands.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   File + " is not in " + BuildDir + "/compile_commands.json");
  const clang::tooling::CompileCommand &C = Commands.front();
  std::vector<std::string> Args = clang::tooling::getClangStripOutputAdjuster()(C.CommandLine, File);
  Args = clang::tooling::getClangStripDependencyFileAdjuster()(Args, File);
  std::vector<std::string> Flags = {"-working-directory=" + C.Directory};
  for (size_t I = 1; I < Args.size(); ++I) {
    llvm::StringRef A = Args[I];
    if (A == "-c" || A == C.Filename || A == File || A == "--")
      continue;
    Flags.push_back(Args[I]);
  }
  return Flags;
}

} // namespace torch_tidy::verify
