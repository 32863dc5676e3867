//===--- Carry.h - what a bundle takes along from the lint machine *- C++ -*-===//
//
// A program compiles on the lint machine with its own folder, the include
// folders of its flags, LibTorch and the system's headers. A bundle must
// compile it on another machine, so it carries the headers the program
// includes from its own folder and from its include folders (copied into
// programs/<k>/), points the flags at the copies, and leaves LibTorch to the
// other machine's find_package(Torch). Include folders under /usr or /opt
// are taken to exist there too and keep their flags; nothing else in a
// bundle names a path of the lint machine.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_RUNTIME_VERIFY_BUNDLE_CARRY_H
#define TORCH_TIDY_RUNTIME_VERIFY_BUNDLE_CARRY_H

#include "runtime_verify/bundle/Manifest.h"
#include "runtime_verify/instrument/Instrumenter.h"

#include <string>
#include <utility>
#include <vector>

namespace torch_tidy::verify {

/// An include folder of a command line: its kind (QUOTE, ANGLED, SYSTEM,
/// AFTER, as in BundleInclude) and its absolute path.
struct IncludeFlag {
  std::string Kind;
  std::string Path;
};

/// A command line's include folders, apart from its other options.
struct SplitFlags {
  /// In their order, without -working-directory and --driver-mode (which
  /// clang's tooling adds to a compile database's commands).
  std::vector<std::string> Options;
  std::vector<IncludeFlag> Includes;
};

/// Splits compiler flags (-I, -iquote, -isystem, -idirafter, joined or not)
/// and makes the folders absolute against -working-directory or the
/// current folder.
SplitFlags splitIncludeFlags(const std::vector<std::string> &Flags);

/// The flags that name \p Includes again ("-iquote", DIR, ...).
std::vector<std::string> includeFlags(const std::vector<IncludeFlag> &Includes);

/// The options a bundle's program is compiled with: \p Flags' options and
/// the flags of its include folders under /usr or /opt (LibTorch's and the
/// carried ones are not options).
std::vector<std::string> carriedOptions(const SplitFlags &Flags);

/// What a bundle carries for one program.
struct CarryPlan {
  std::vector<std::string> Options;    ///< carriedOptions()
  std::vector<BundleInclude> Includes; ///< the copies' folders, relative to the bundle
  std::vector<std::pair<std::string, std::string>> Copies; ///< file -> path in the bundle
};

/// Plans what the program in \p SourceDir, compiled with \p Flags and
/// reading \p Included, needs in the bundle folder \p Folder
/// ("programs/<k>"); \p TorchDirs are the LibTorch include folders it was
/// parsed with.
CarryPlan planCarry(const SplitFlags &Flags, const std::string &SourceDir,
                    const std::vector<IncludedFile> &Included,
                    const std::vector<std::string> &TorchDirs,
                    const std::string &Folder);

} // namespace torch_tidy::verify

#endif
