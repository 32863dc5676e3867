//===--- PreambleBuild.h - precompiling one preamble ------------*- C++ -*-===//
//
// Builds the PCH of a unit's preamble with Clang's PrecompiledPreamble, as a
// whole parse would read it (bodies of functions in system headers skipped
// when the run skips them), and records what it read. The PCH may know its
// main file by another name than the unit's (a preamble shared by units);
// the build says whether the preamble's meaning depends on that name or on
// where the main file's directives are, which sharing must respect.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_DRIVER_ENGINE_PREAMBLEBUILD_H
#define TORCH_TIDY_DRIVER_ENGINE_PREAMBLEBUILD_H

#include "driver/engine/PreambleCache.h"

#include "clang/Lex/Lexer.h"

namespace llvm {
class MemoryBuffer;
} // namespace llvm

namespace torch_tidy {

/// What building a preamble needs.
struct BuildRequest {
  const clang::CompilerInvocation &Invocation;
  clang::FileManager &Files;
  llvm::MemoryBuffer &MainBuffer;
  clang::PreambleBounds Bounds;
  std::shared_ptr<clang::PCHContainerOperations> PCHContainerOps;
  bool SkipSystemBodies;
  AbsenceRecorder &Absences;
};

/// What a build found out.
struct BuildOutcome {
  /// Built without compiler errors.
  bool Usable = false;
  /// The preamble expands __BASE_FILE__, or __FILE__, __FILE_NAME__ or
  /// __TIMESTAMP__ in the main file: it holds the main file's name.
  bool NamesMainFile = false;
  /// It expands __LINE__ in the main file: it holds the positions of the
  /// main file's directives.
  bool UsesPositions = false;
};

/// Precompiles the preamble of \p R's main file, which the PCH knows as
/// \p MainPath, into \p Dir as \p Key-<unique>.pch; records into \p P the
/// PCH's path, the files the preamble read and the paths it looked up in
/// vain (but \p MainPath). False when it could not be built at all.
bool buildPreamble(const BuildRequest &R, llvm::StringRef MainPath,
                   llvm::StringRef Dir, llvm::StringRef Key, Preamble &P,
                   BuildOutcome &Out);

} // namespace torch_tidy

#endif
