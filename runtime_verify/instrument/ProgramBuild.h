//===--- ProgramBuild.h - compile instrumented programs against LibTorch --===//
//
// Finds a LibTorch, builds (once, cached) a precompiled header of
// <torch/torch.h> and the probe's object file, and compiles and links
// instrumented programs with them.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_RUNTIME_VERIFY_PROGRAMBUILD_H
#define TORCH_TIDY_RUNTIME_VERIFY_PROGRAMBUILD_H

#include "base/Process.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace torch_tidy {
namespace verify {

/// Where a LibTorch's headers and libraries are.
struct TorchInstall {
  std::string CMakeDir; ///< the folder holding TorchConfig.cmake
  std::vector<std::string> IncludeDirs;
  std::string LibDir;
  bool HasCuda = false; ///< libc10_cuda is there
  unsigned Major = 0;   ///< TORCH_VERSION_MAJOR, 0 when unknown
};

/// Finds a LibTorch from `TorchDir` (a Torch_DIR: .../share/cmake/Torch or
/// the install prefix); when empty, from $Torch_DIR, then the usual system
/// locations.
llvm::Expected<TorchInstall> findTorch(const std::string &TorchDir);

/// The probe's sources (include/, src/): $TORCH_TIDY_PROBE_DIR, else the
/// installed copy next to the binary (../share/torch-tidy/probe), else the
/// source tree torch-tidy was built from.
std::string probeDir();

/// The first line of the log \p LogPath that names an error (a compiler's
/// "error:", a linker's "undefined reference", CMake's "CMake Error"), else
/// its first line.
std::string firstErrorLine(const std::string &LogPath);

/// "compiling FILE failed (exit status 1): <the log's first error>".
std::string compileFailure(const std::string &Source, const ProcessResult &R,
                           const std::string &LogPath);

class ProgramBuilder {
public:
  ProgramBuilder(TorchInstall Torch, std::string Compiler, std::string CacheDir,
                 std::vector<std::string> UserFlags, unsigned TimeoutSeconds);

  /// Builds the precompiled header and the probe object unless cached.
  llvm::Error prepare();

  /// Compiler flags for parsing the program (analysis, instrumentation):
  /// the user's flags, LibTorch's include folders and, once prepared, the
  /// precompiled header.
  std::vector<std::string> parseFlags() const;

  /// Compiles `Source` with the probe and links it to `Output`; on failure
  /// the message names the first error of the log.
  llvm::Error build(const std::string &Source, const std::string &Output,
                    bool LinkProbe = true) const;

  /// Compiles `Source` as build() does, with \p ProgramFlags (the program's
  /// include folders) after the builder's own, its output in \p LogPath.
  ProcessResult compile(const std::string &Source, const std::string &Output,
                        const std::string &LogPath, const std::vector<std::string> &ProgramFlags,
                        bool LinkProbe = true) const;

  const TorchInstall &torch() const { return Torch; }
  unsigned timeout() const { return TimeoutSeconds; }

private:
  std::vector<std::string> compileFlags() const;
  llvm::Error buildCached(const std::string &Path, const std::vector<std::string> &Argv,
                          const std::string &What);

  TorchInstall Torch;
  std::string Compiler;
  std::string CacheDir;
  std::vector<std::string> UserFlags;
  unsigned TimeoutSeconds;
  std::string PchPath;
  std::string ProbeObject;
  bool UsePch = false;
};

} // namespace verify
} // namespace torch_tidy

#endif
