//===--- Analysis.cpp - what verify runs, and where -----------------------===//

#include "runtime_verify/command/Analysis.h"

#include "base/Paths.h"
#include "base/Process.h"

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

} // namespace torch_tidy::verify
