//===--- ProgramBuild.cpp - compile instrumented programs against LibTorch ===//
#include "runtime_verify/instrument/ProgramBuild.h"
#include "base/Paths.h"
#include "base/Process.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/LockFileManager.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/xxhash.h"

#include <cstdlib>

namespace torch_tidy {
namespace verify {

namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

static std::string parentOf(llvm::StringRef P) { return std::string(path::parent_path(P)); }

// Looks in `Dir` and its ancestors for LibTorch's headers and libraries.
static bool probeInstall(const std::string &Dir, TorchInstall &Out) {
  if (!fs::is_directory(Dir))
    return false;
  llvm::SmallString<256> Abs(Dir);
  fs::make_absolute(Abs);
  path::remove_dots(Abs, /*remove_dot_dot=*/true);
  std::string Prefix;
  for (std::string P = std::string(Abs); !P.empty() && P != "/"; P = parentOf(P))
    if (fs::is_directory(joinPath(P, "include/torch/csrc/api/include"))) {
      Prefix = P;
      break;
    }
  if (Prefix.empty())
    return false;
  std::string LibDir;
  for (std::string P = std::string(Abs); !P.empty() && P != "/"; P = parentOf(P)) {
    if (fs::exists(joinPath(P, "libtorch.so"))) {
      LibDir = P;
      break;
    }
    if (fs::exists(joinPath(P, "lib/libtorch.so"))) {
      LibDir = joinPath(P, "lib");
      break;
    }
  }
  if (LibDir.empty())
    return false;
  Out.CMakeDir = std::string(Abs);
  // The compiler's own system folders stay where they are in the search
  // order (naming /usr/include again would break #include_next).
  Out.IncludeDirs.clear();
  if (Prefix != "/usr" && Prefix != "/usr/local")
    Out.IncludeDirs.push_back(joinPath(Prefix, "include"));
  Out.IncludeDirs.push_back(joinPath(Prefix, "include/torch/csrc/api/include"));
  Out.LibDir = LibDir;
  Out.HasCuda = fs::exists(joinPath(LibDir, "libc10_cuda.so"));
  Out.Major = 0;
  for (const char *VersionFile : {"include/torch/csrc/api/include/torch/version.h",
                                  "include/torch/headeronly/version.h"})
    if (auto Version = llvm::MemoryBuffer::getFile(joinPath(Prefix, VersionFile))) {
      llvm::StringRef Text = (*Version)->getBuffer();
      size_t At = Text.find("#define TORCH_VERSION_MAJOR ");
      if (At != llvm::StringRef::npos)
        Text.substr(At + 28).take_while(llvm::isDigit).getAsInteger(10, Out.Major);
    }
  return true;
}

llvm::Expected<TorchInstall> findTorch(const std::string &TorchDir) {
  TorchInstall Install;
  if (!TorchDir.empty()) {
    if (probeInstall(TorchDir, Install))
      return Install;
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "no LibTorch found at '" + TorchDir +
                                       "' (give the folder of TorchConfig.cmake or the install prefix)");
  }
  std::vector<std::string> Candidates;
  if (const char *Env = std::getenv("Torch_DIR"))
    Candidates.push_back(Env);
  std::error_code EC;
  for (fs::directory_iterator It("/usr/lib", EC), End; !EC && It != End; It.increment(EC))
    Candidates.push_back(joinPath(It->path(), "cmake/Torch"));
  for (const char *Dir : {"/usr/lib/cmake/Torch", "/usr/share/cmake/Torch",
                          "/usr/local/share/cmake/Torch", "/usr/local/lib/cmake/Torch"})
    Candidates.push_back(Dir);
  for (const std::string &C : Candidates)
    if (fs::exists(joinPath(C, "TorchConfig.cmake")) && probeInstall(C, Install))
      return Install;
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "no LibTorch found; pass --torch-dir DIR (the folder of TorchConfig.cmake)");
}

std::string probeDir() {
  if (const char *Env = std::getenv("TORCH_TIDY_PROBE_DIR"))
    if (*Env)
      return Env;
  std::string Exe = fs::getMainExecutable(nullptr, nullptr);
  if (!Exe.empty()) {
    std::string Installed =
        joinPath(parentOf(parentOf(Exe)), "share/torch-tidy/probe");
    if (fs::exists(joinPath(Installed, "include/torch_tidy/probe.h")))
      return Installed;
  }
  return TORCH_TIDY_PROBE_DIR;
}

ProgramBuilder::ProgramBuilder(TorchInstall Torch, std::string Compiler, std::string CacheDir,
                               std::vector<std::string> UserFlags, unsigned TimeoutSeconds)
    : Torch(std::move(Torch)), Compiler(std::move(Compiler)), CacheDir(std::move(CacheDir)),
      UserFlags(std::move(UserFlags)), TimeoutSeconds(TimeoutSeconds) {}

std::vector<std::string> ProgramBuilder::compileFlags() const {
  std::vector<std::string> Flags;
  bool HasStd = false;
  for (const std::string &F : UserFlags)
    HasStd |= llvm::StringRef(F).starts_with("-std=");
  if (!HasStd) // LibTorch 2.x headers need C++20 in their newer releases
    Flags.push_back(Torch.Major >= 2 ? "-std=c++20" : "-std=c++17");
  Flags.insert(Flags.end(), UserFlags.begin(), UserFlags.end());
  for (const std::string &Dir : Torch.IncludeDirs) {
    Flags.push_back("-isystem");
    Flags.push_back(Dir);
  }
  Flags.push_back("-I" + joinPath(probeDir(), "include"));
  if (Torch.HasCuda)
    Flags.push_back("-DTORCH_TIDY_PROBE_CUDA=1");
  Flags.push_back("-O0"); // quick to compile; the graph is the same at any level
  Flags.push_back("-w");  // the program's own warnings are not ours to report
  return Flags;
}

std::vector<std::string> ProgramBuilder::parseFlags() const {
  std::vector<std::string> Flags = compileFlags();
  if (UsePch) {
    Flags.push_back("-include-pch");
    Flags.push_back(PchPath);
  }
  return Flags;
}

static std::string fileStamp(const std::string &Path) {
  fs::file_status Status;
  if (fs::status(Path, Status))
    return Path + ":missing";
  return Path + ":" + std::to_string(Status.getSize()) + ":" +
         std::to_string(Status.getLastModificationTime().time_since_epoch().count());
}

static std::string fileContents(const std::string &Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  return Buffer ? std::string((*Buffer)->getBuffer()) : std::string();
}

std::string firstErrorLine(const std::string &LogPath) {
  std::string Log = fileContents(LogPath);
  llvm::SmallVector<llvm::StringRef, 16> Lines;
  llvm::StringRef(Log).split(Lines, '\n');
  for (llvm::StringRef L : Lines)
    if (L.contains("error:") || L.contains("undefined reference") || L.contains("CMake Error"))
      return std::string(L.trim());
  return Lines.empty() ? std::string() : std::string(Lines.front().trim());
}

llvm::Error ProgramBuilder::buildCached(const std::string &Path, const std::vector<std::string> &Argv,
                                        const std::string &What) {
  if (fs::exists(Path))
    return llvm::Error::success();
  while (true) {
    llvm::LockFileManager Lock(Path);
    switch (Lock.getState()) {
    case llvm::LockFileManager::LFS_Error:
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "cannot lock the cache entry " + Path);
    case llvm::LockFileManager::LFS_Shared:
      // Someone else is building it: wait, then use theirs (or retry).
      Lock.waitForUnlock(1800);
      if (fs::exists(Path))
        return llvm::Error::success();
      continue;
    case llvm::LockFileManager::LFS_Owned: {
      if (fs::exists(Path))
        return llvm::Error::success();
      std::string Temp = Path + ".tmp" + std::to_string(llvm::sys::Process::getProcessId());
      std::vector<std::string> Args = Argv;
      Args.push_back("-o");
      Args.push_back(Temp);
      ProcessOptions Options;
      Options.StdoutPath = Path + ".log";
      Options.StderrPath = "=stdout";
      Options.TimeoutSeconds = TimeoutSeconds;
      ProcessResult R = runProcess(Args, Options);
      if (!R.succeeded()) {
        fs::remove(Temp);
        return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                       "building the " + What + " failed (" + R.describe() +
                                           "): " + firstErrorLine(Path + ".log"));
      }
      if (std::error_code EC = fs::rename(Temp, Path))
        return llvm::createStringError(EC, "cannot store " + Path + ": " + EC.message());
      return llvm::Error::success();
    }
    }
  }
}

llvm::Error ProgramBuilder::prepare() {
  if (std::error_code EC = fs::create_directories(CacheDir))
    return llvm::createStringError(EC, "cannot create the cache folder " + CacheDir + ": " +
                                           EC.message());
  std::string PchHeader = joinPath(probeDir(), "include/torch_tidy/torch_pch.h");
  std::string TorchHeader;
  std::vector<std::string> Searched = Torch.IncludeDirs;
  Searched.push_back("/usr/include");
  for (const std::string &Dir : Searched)
    if (fs::exists(joinPath(Dir, "torch/torch.h")))
      TorchHeader = joinPath(Dir, "torch/torch.h");
  std::vector<std::string> Flags = compileFlags();
  std::string Key = Compiler + "\n" + llvm::join(Flags, "\n") + "\n" + fileStamp(PchHeader) +
                    "\n" + fileStamp(TorchHeader) + "\n" + fileStamp(Compiler);
  std::string PchKey = llvm::utohexstr(llvm::xxh3_64bits(Key));
  PchPath = joinPath(CacheDir, "torch-" + PchKey + ".pch");

  std::vector<std::string> PchArgv = {Compiler};
  PchArgv.insert(PchArgv.end(), Flags.begin(), Flags.end());
  PchArgv.insert(PchArgv.end(), {"-x", "c++-header", PchHeader, "-fpch-instantiate-templates"});
  if (llvm::Error E = buildCached(PchPath, PchArgv, "precompiled header of <torch/torch.h>")) {
    // Not fatal: every compile just takes longer.
    llvm::consumeError(std::move(E));
    UsePch = false;
  } else {
    UsePch = true;
  }

  std::string ProbeSource = joinPath(probeDir(), "src/probe.cpp");
  std::string ProbeKey = llvm::utohexstr(llvm::xxh3_64bits(
      Key + "\n" + (UsePch ? PchPath : "") + "\n" + fileContents(ProbeSource) +
      fileContents(joinPath(probeDir(), "include/torch_tidy/probe.h")) +
      fileContents(joinPath(probeDir(), "include/torch_tidy/probe_impl.h"))));
  ProbeObject = joinPath(CacheDir, "probe-" + ProbeKey + ".o");
  std::vector<std::string> ProbeArgv = {Compiler};
  std::vector<std::string> Parse = parseFlags();
  ProbeArgv.insert(ProbeArgv.end(), Parse.begin(), Parse.end());
  ProbeArgv.insert(ProbeArgv.end(), {"-c", ProbeSource});
  return buildCached(ProbeObject, ProbeArgv, "probe library");
}

ProcessResult ProgramBuilder::compile(const std::string &Source, const std::string &Output,
                                     const std::string &LogPath,
                                     const std::vector<std::string> &ProgramFlags,
                                     bool LinkProbe) const {
  auto Attempt = [&](bool WithPch) {
    std::vector<std::string> Argv = {Compiler};
    std::vector<std::string> Flags = WithPch ? parseFlags() : compileFlags();
    Argv.insert(Argv.end(), Flags.begin(), Flags.end());
    Argv.insert(Argv.end(), ProgramFlags.begin(), ProgramFlags.end());
    Argv.insert(Argv.end(), {"-include", "torch_tidy/probe.h", Source});
    if (LinkProbe)
      Argv.push_back(ProbeObject);
    Argv.insert(Argv.end(), {"-o", Output,
                             "-L" + Torch.LibDir, "-Wl,-rpath," + Torch.LibDir,
                             "-Wl,--no-as-needed"});
    if (Torch.HasCuda) {
      // The CUDA libraries register their operators when loaded; a wheel
      // built for another CUDA release still links (its CUDA runtime is
      // resolved when the program runs on a GPU machine).
      Argv.insert(Argv.end(), {"-ltorch_cuda", "-lc10_cuda", "-Wl,--allow-shlib-undefined"});
      if (fs::is_directory("/usr/local/cuda/lib64"))
        Argv.push_back("-Wl,-rpath-link,/usr/local/cuda/lib64");
    }
    Argv.insert(Argv.end(), {"-ltorch", "-ltorch_cpu", "-lc10", "-Wl,--as-needed", "-lpthread"});
    ProcessOptions Options;
    Options.StdoutPath = LogPath;
    Options.StderrPath = "=stdout";
    Options.TimeoutSeconds = TimeoutSeconds;
    return runProcess(Argv, Options);
  };
  ProcessResult R = Attempt(UsePch);
  if (!R.succeeded() && UsePch && !R.TimedOut)
    R = Attempt(false); // a stale precompiled header should not fail the run
  return R;
}

std::string compileFailure(const std::string &Source, const ProcessResult &R,
                           const std::string &LogPath) {
  return "compiling " + std::string(path::filename(Source)) + " failed (" + R.describe() +
         "): " + firstErrorLine(LogPath);
}

llvm::Error ProgramBuilder::build(const std::string &Source, const std::string &Output,
                                  bool LinkProbe) const {
  std::string Log = Output + ".log";
  ProcessResult R = compile(Source, Output, Log, {}, LinkProbe);
  if (!R.succeeded())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   compileFailure(Source, R, Log));
  return llvm::Error::success();
}

} // namespace verify
} // namespace torch_tidy
