//===--- PreambleCache.h - precompiled preambles kept between runs -*- C++
//-*-===//
//
// The preamble of a file (its leading comments and preprocessor directives,
// where the #include <torch/torch.h> is) is precompiled once and kept on
// disk, so that a unit whose headers are unchanged parses only its own code.
//
// Units share a preamble when its directives and their compiler flags are
// the same (PreambleKey.h): the PCH then knows its main file by a name of
// its own, in a directory that stands for each unit's own (or in the unit's
// directory, when an #include "name" may be found there). A preamble whose
// meaning depends on the main file's name (__FILE__, __BASE_FILE__) is kept
// for that file alone; one that depends on where its directives are
// (__LINE__, #line) for units with the very same text.
//
// An entry records the preamble's text, every file the preamble read by
// content hash and every path it looked up in vain, and is rebuilt when any
// of them changed. A preamble with compiler errors is recorded as unusable
// (the unit is parsed whole). Entries are written atomically and kept under
// a size bound.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_DRIVER_ENGINE_PREAMBLECACHE_H
#define TORCH_TIDY_DRIVER_ENGINE_PREAMBLECACHE_H

#include "driver/engine/PreambleKey.h"

#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Serialization/PCHContainerOperations.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class FileManager;
} // namespace clang

namespace torch_tidy {

class AbsenceRecorder;

struct Preamble {
  std::string PCHPath;
  /// The unit's own preamble: the first Size bytes of its file.
  unsigned Size = 0;
  bool EndsAtStartOfLine = false;
  /// The name the PCH knows its main file by. When it is not the unit's
  /// (a shared preamble), MainText is that file's preamble, which the unit
  /// reads under that name, and Built and Unit map its offsets to the
  /// unit's own (PreambleLocations.h).
  std::string MainPath, MainText;
  PreambleShape Built, Unit;
  /// Every file the preamble read (absolute path -> content hash), the user
  /// files among them (name as opened -> hash), the paths it looked up in
  /// vain (in the unit's directory where it looked next to its main file).
  std::map<std::string, std::string> Files, UserFiles;
  std::vector<std::string> Absent;

  bool isShared() const { return !MainText.empty(); }
};

class PreambleCache {
public:
  /// \p Dir is created on first store; \p MaxBytes bounds its size.
  PreambleCache(std::string Dir, uint64_t MaxBytes);

  /// The preamble of \p Invocation's main file, reused when nothing it was
  /// made from changed and built otherwise (when \p MayBuild); none when the
  /// file has no preamble or its preamble does not compile. \p What is set
  /// to what happened: "hit", "built", "none", "not built", "unusable" or
  /// "failed".
  /// \p Absences is the file system under \p Files.
  std::optional<Preamble>
  get(const clang::CompilerInvocation &Invocation, clang::FileManager &Files,
      std::shared_ptr<clang::PCHContainerOperations> PCHContainerOps,
      llvm::StringRef ToolIdentity, bool SkipSystemBodies, bool MayBuild,
      AbsenceRecorder &Absences, std::string &What);

  /// Makes \p Invocation read \p P instead of parsing the preamble.
  static void use(const Preamble &P, clang::CompilerInvocation &Invocation);

private:
  std::string Dir;
  uint64_t MaxBytes;
};

} // namespace torch_tidy

#endif
