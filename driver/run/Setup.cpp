//===--- Setup.cpp - stage 1: what a run is configured with ---------------===//

#include "driver/run/Setup.h"

#include "driver/ExitCodes.h"
#include "driver/run/DefaultChecks.h"
#include "driver/report/SourceFiles.h"

#include "clang-tidy/ClangTidy.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;
using namespace clang::tidy;

namespace torch_tidy {

int fail(const std::string &Message) {
  llvm::errs() << "torch-tidy: error: " << Message << "\n";
  return ExitToolFailure;
}

namespace {
/// clang-tidy's options as clang-tidy would make them from this command
/// line: its defaults, .clang-tidy files or --config/--config-file, the
/// flags.
std::unique_ptr<ClangTidyOptionsProvider>
makeUserOptionsProvider(const DriverOptions &O, std::string &Error);
} // namespace

std::unique_ptr<ClangTidyOptionsProvider>
makeOptionsProvider(const DriverOptions &O, std::string &Error) {
  std::unique_ptr<ClangTidyOptionsProvider> Provider =
      makeUserOptionsProvider(O, Error);
  return Provider ? withTorchChecksByDefault(std::move(Provider)) : nullptr;
}

namespace {

std::unique_ptr<ClangTidyOptionsProvider>
makeUserOptionsProvider(const DriverOptions &O, std::string &Error) {
  ClangTidyGlobalOptions Global;
  if (O.LineFilter) {
    if (std::error_code EC = parseLineFilter(*O.LineFilter, Global)) {
      Error = "invalid --line-filter: " + EC.message();
      return nullptr;
    }
  }
  ClangTidyOptions Defaults;
  Defaults.Checks = DefaultChecks;
  Defaults.WarningsAsErrors = "";
  Defaults.HeaderFilterRegex = "";
  Defaults.SystemHeaders = false;
  Defaults.FormatStyle = "none";
  Defaults.User = llvm::sys::Process::GetEnv("USER");

  ClangTidyOptions Override;
  // clang-format off
  if (O.Checks) Override.Checks = *O.Checks;
  if (O.WarningsAsErrors) Override.WarningsAsErrors = *O.WarningsAsErrors;
  if (O.HeaderFilter) Override.HeaderFilterRegex = *O.HeaderFilter;
  if (O.ExcludeHeaderFilter)
    Override.ExcludeHeaderFilterRegex = *O.ExcludeHeaderFilter;
  if (O.SystemHeaders) Override.SystemHeaders = *O.SystemHeaders;
  if (O.FormatStyle) Override.FormatStyle = *O.FormatStyle;
  if (O.UseColor) Override.UseColor = *O.UseColor;
  // clang-format on
  // clang's builtin headers from the LLVM torch-tidy was built with, first,
  // so that a -resource-dir of the user's own still wins.
  std::vector<std::string> Before;
  if (llvm::sys::fs::is_directory(TORCH_TIDY_RESOURCE_DIR))
    Before.push_back(std::string("-resource-dir=") + TORCH_TIDY_RESOURCE_DIR);
  Before.insert(Before.end(), O.ExtraArgsBefore.begin(),
                O.ExtraArgsBefore.end());
  Override.ExtraArgsBefore = Before;
  if (!O.ExtraArgs.empty())
    Override.ExtraArgs = O.ExtraArgs;

  auto Load =
      [&](llvm::StringRef Text,
          llvm::StringRef Source) -> std::unique_ptr<ClangTidyOptionsProvider> {
    llvm::ErrorOr<ClangTidyOptions> Parsed =
        parseConfiguration(llvm::MemoryBufferRef(Text, Source));
    if (!Parsed) {
      Error = ("invalid configuration in " + Source + ": " +
               Parsed.getError().message())
                  .str();
      return nullptr;
    }
    return std::make_unique<ConfigOptionsProvider>(
        std::move(Global), ClangTidyOptions::getDefaults().merge(Defaults, 0),
        std::move(*Parsed), std::move(Override));
  };
  if (O.ConfigFile) {
    auto Text = llvm::MemoryBuffer::getFile(*O.ConfigFile, /*IsText=*/true);
    if (!Text) {
      Error = "cannot read --config-file '" + *O.ConfigFile +
              "': " + Text.getError().message();
      return nullptr;
    }
    return Load((*Text)->getBuffer(), *O.ConfigFile);
  }
  if (O.Config)
    return Load(*O.Config, "--config");
  return std::make_unique<FileOptionsProvider>(
      std::move(Global), std::move(Defaults), std::move(Override));
}

std::unique_ptr<tooling::CompilationDatabase>
loadCompilations(const DriverOptions &O, llvm::StringRef FirstFile,
                 std::string &Error, std::string &Warning) {
  if (O.HasFixedFlags) {
    std::vector<const char *> Argv = {"torch-tidy", "--"};
    for (const std::string &F : O.FixedFlags)
      Argv.push_back(F.c_str());
    int Argc = static_cast<int>(Argv.size());
    std::string Msg;
    auto DB = tooling::FixedCompilationDatabase::loadFromCommandLine(
        Argc, Argv.data(), Msg);
    if (!DB)
      Error = "cannot use the flags after '--': " + Msg;
    return DB;
  }
  std::string Msg;
  if (!O.BuildPath.empty()) {
    if (!llvm::sys::fs::is_directory(O.BuildPath)) {
      Error = "-p " + O.BuildPath + ": not a directory";
      return nullptr;
    }
    // The database of this directory, not of one above it.
    llvm::SmallString<256> Json(O.BuildPath), Flags(O.BuildPath);
    llvm::sys::path::append(Json, "compile_commands.json");
    llvm::sys::path::append(Flags, "compile_flags.txt");
    if (!llvm::sys::fs::exists(Json) && !llvm::sys::fs::exists(Flags)) {
      Error = "no compile_commands.json in " + O.BuildPath;
      return nullptr;
    }
    uint64_t Size = 0;
    if (!llvm::sys::fs::file_size(Json, Size) && Size == 0) {
      Error = "cannot use the compilation database in " + O.BuildPath +
              ": compile_commands.json is empty";
      return nullptr;
    }
    // Exactly this directory's database: a broken one is an error, never a
    // reason to use another found further up.
    std::unique_ptr<tooling::CompilationDatabase> DB;
    if (llvm::sys::fs::exists(Json)) {
      DB = tooling::JSONCompilationDatabase::loadFromFile(
          Json, Msg, tooling::JSONCommandLineSyntax::AutoDetect);
      if (DB)
        DB = tooling::inferTargetAndDriverMode(
            tooling::inferMissingCompileCommands(std::move(DB)));
    } else {
      DB = tooling::FixedCompilationDatabase::loadFromFile(Flags, Msg);
    }
    if (!DB)
      Error = "cannot use the compilation database in " + O.BuildPath + ": " +
              llvm::StringRef(Msg).trim().split('\n').first.str();
    return DB;
  }
  if (!FirstFile.empty())
    if (auto DB =
            tooling::CompilationDatabase::autoDetectFromSource(FirstFile, Msg))
      return DB;
  Warning = "no compilation database found for " +
            (FirstFile.empty() ? std::string("the input") : FirstFile.str()) +
            "; running without flags";
  return std::make_unique<tooling::FixedCompilationDatabase>(
      ".", std::vector<std::string>());
}

// A file with a NUL byte in its first 64 KiB is not source text: say so,
// rather than let clang print screens of garbage as diagnostics.
bool looksBinary(llvm::StringRef Path, size_t &NulOffset) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return false;
  NulOffset = (*Buffer)->getBuffer().take_front(65536).find('\0');
  return NulOffset != llvm::StringRef::npos;
}

// The .clang-tidy files that configure \p File, nearest first, parsed as
// clang-tidy parses them. clang-tidy reports a file it cannot parse and goes
// on without it, which would quietly run other checks than the user chose:
// here that is an error.
bool checkConfigFiles(llvm::StringRef File, std::set<std::string> &Checked,
                      std::string &Error) {
  llvm::SmallString<256> Dir(SourceFiles::absolute(File.str()));
  llvm::sys::path::remove_filename(Dir);
  for (; !Dir.empty(); Dir = llvm::sys::path::parent_path(Dir)) {
    llvm::SmallString<256> Config(Dir);
    llvm::sys::path::append(Config, ".clang-tidy");
    if (!Checked.insert(std::string(Config)).second)
      return true; // this file and the ones above it were checked already
    if (!llvm::sys::fs::is_regular_file(Config))
      continue;
    auto Text = llvm::MemoryBuffer::getFile(Config, /*IsText=*/true);
    if (!Text) {
      Error = "cannot read '" + Config.str().str() +
              "': " + Text.getError().message();
      return false;
    }
    std::string First;
    llvm::ErrorOr<ClangTidyOptions> Parsed = parseConfigurationWithDiags(
        (*Text)->getMemBufferRef(), [&](const llvm::SMDiagnostic &D) {
          if (First.empty() && D.getKind() == llvm::SourceMgr::DK_Error)
            First = llvm::formatv("{0}:{1}: {2}", D.getLineNo(),
                                  D.getColumnNo() + 1, D.getMessage())
                        .str();
        });
    if (!Parsed) {
      Error = "invalid configuration in '" + Config.str().str() +
              "': " + (First.empty() ? Parsed.getError().message() : First);
      return false;
    }
    if (!Parsed->InheritParentConfig.value_or(false))
      return true;
  }
  return true;
}

// clang-tidy ignores a -checks glob that names no check, so a typo turns a
// check off without a word. Say which globs enable nothing.
void warnUnknownCheckGlobs(const ClangTidyOptions &Effective) {
  ClangTidyOptions All = Effective;
  All.Checks = "*";
  std::vector<std::string> Known = getCheckNames(All, false);
  llvm::SmallVector<llvm::StringRef, 8> Globs;
  std::string Checks = Effective.Checks.value_or("");
  llvm::StringRef(Checks).split(Globs, ',', -1, false);
  std::set<std::string> Warned;
  for (llvm::StringRef G : Globs) {
    G = G.trim();
    if (G.empty() || G.starts_with("-") || G.starts_with("clang-diagnostic-"))
      continue;
    std::string Pattern = "^";
    for (char C : G)
      Pattern +=
          C == '*' ? std::string(".*") : llvm::Regex::escape(std::string(1, C));
    llvm::Regex R(Pattern + "$");
    if (llvm::any_of(Known, [&](const std::string &N) { return R.match(N); }))
      continue;
    if (Warned.insert(G.str()).second)
      llvm::errs() << "torch-tidy: warning: the check glob '" << G
                   << "' matches no check (see --list-checks)\n";
  }
}

/// The inputs must exist and be source files, and there must be some.
bool checkInputs(const DriverOptions &O, std::string &Error) {
  for (const std::string &F : O.Files) {
    llvm::sys::fs::file_status S;
    if (std::error_code EC = llvm::sys::fs::status(F, S)) {
      Error = "cannot read '" + F + "': " + EC.message();
      return false;
    }
    if (llvm::sys::fs::is_directory(S)) {
      Error = "'" + F + "' is a directory, not a source file";
      return false;
    }
    if (llvm::sys::fs::access(F, llvm::sys::fs::AccessMode::Exist) ||
        !llvm::MemoryBuffer::getFile(F)) {
      Error = "cannot read '" + F + "'";
      return false;
    }
    size_t Nul = 0;
    if (looksBinary(F, Nul)) {
      Error = "'" + F + "' is not source text (a NUL byte at offset " +
              std::to_string(Nul) + ")";
      return false;
    }
  }
  if (O.Files.empty() && O.BuildPath.empty() && O.WorkerOutput.empty()) {
    Error = "no input files; give source files, or -p BUILD_DIR to check "
            "every translation unit of its compile_commands.json";
    return false;
  }
  return true;
}

} // namespace

bool RunSetup::checkConfigsOf(llvm::StringRef File, std::string &Error) {
  return !CheckConfigs || checkConfigFiles(File, CheckedConfigs, Error);
}

bool setUpRun(const DriverOptions &O, RunSetup &S, int &Exit) {
  Exit = ExitToolFailure;
  std::string Error, Warning;
  if (!checkInputs(O, Error)) {
    fail(Error);
    return false;
  }
  std::unique_ptr<ClangTidyOptionsProvider> Provider =
      makeOptionsProvider(O, Error);
  if (!Provider) {
    fail(Error);
    return false;
  }
  S.Compilations = loadCompilations(
      O, O.Files.empty() ? llvm::StringRef() : llvm::StringRef(O.Files.front()),
      Error, Warning);
  if (!S.Compilations) {
    fail(Error);
    return false;
  }
  bool Worker = !O.WorkerOutput.empty();
  if (!Warning.empty() && !Worker)
    llvm::errs() << "torch-tidy: warning: " << Warning << "\n";

  // A broken .clang-tidy is a configuration error, not a reason to run other
  // checks than the user chose.
  std::string FirstPath = SourceFiles::absolute(
      O.Files.empty() ? std::string("dummy") : O.Files.front());
  S.CheckConfigs = !O.Config && !O.ConfigFile && !Worker;
  if (!S.checkConfigsOf(FirstPath, Error)) {
    fail(Error);
    return false;
  }
  for (const std::string &F : O.Files)
    if (!S.checkConfigsOf(F, Error)) {
      fail(Error);
      return false;
    }
  ClangTidyOptions Effective = Provider->getOptions(FirstPath);
  S.Enabled = getCheckNames(Effective, false);
  if (!Worker)
    warnUnknownCheckGlobs(Effective);
  if (S.Enabled.empty()) {
    if (O.AllowNoChecks)
      Exit = ExitClean;
    else
      fail("no checks enabled (see -checks and .clang-tidy)");
    return false;
  }
  S.Context = std::make_unique<ClangTidyContext>(std::move(Provider));
  return true;
}

} // namespace torch_tidy
