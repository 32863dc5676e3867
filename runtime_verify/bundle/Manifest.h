//===--- Manifest.h - what a verify bundle holds ----------------*- C++ -*-===//
//
// manifest.json names the findings of a bundle, the programs they are in
// and the variants (as written, with the fix) built for each, with every
// path relative to the bundle: nothing in it names the machine it was made
// on. `verify --bundle` writes it, the judge reads it back.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_RUNTIME_VERIFY_BUNDLE_MANIFEST_H
#define TORCH_TIDY_RUNTIME_VERIFY_BUNDLE_MANIFEST_H

#include "checks/CheckTable.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace torch_tidy::verify {

/// How the programs run: samples after the warm-up, the warm-up, the limit
/// of each build and run in seconds, and how often each program runs.
struct BundleSettings {
  unsigned Iterations = 30;
  unsigned Warmup = 5;
  unsigned Timeout = 300;
  unsigned Repeat = 1;
};

/// An include folder of a program: Kind is QUOTE (-iquote), ANGLED (-I),
/// SYSTEM (-isystem) or AFTER (-idirafter); Folder is relative to the bundle.
struct BundleInclude {
  std::string Kind;
  std::string Folder;
};

struct BundleProgram {
  std::string File;                 ///< as the verdicts name it
  std::string Folder;               ///< "programs/<k>"
  std::vector<std::string> Options; ///< compiler options, no include folders
  std::vector<BundleInclude> Includes;
};

struct BundleVariant {
  std::string Name;   ///< "original" or "fixed"
  std::string Source; ///< relative to the bundle; empty when Error is set
  std::string Error;  ///< why this variant could not be made
};

/// What is known of a finding before it runs (the judge's verdicts carry
/// it too).
struct FindingFacts {
  unsigned Line = 0;
  std::string Check;
  VerifyProbe Probe = VerifyProbe::None; ///< how the check's findings are watched
  std::string Message;   ///< the diagnostic
  std::string ProbeName; ///< the probe's name in the trace
  std::string Target, Where;
  std::string Error; ///< no probe could be placed: nothing to run
  bool HasFix = false;
};

struct BundleFinding : FindingFacts {
  std::string Id;       ///< "finding-<n>"
  unsigned Program = 0; ///< index into BundleManifest::Programs
  std::vector<BundleVariant> Variants;
};

struct BundleManifest {
  BundleSettings Settings;
  std::vector<BundleProgram> Programs;
  std::vector<BundleFinding> Findings;

  /// The manifest as JSON text.
  std::string text() const;
  /// The file of \p F, as the verdicts name it.
  const std::string &fileOf(const BundleFinding &F) const { return Programs[F.Program].File; }
};

/// Parses manifest.json's text; the error says what is wrong and where.
llvm::Expected<BundleManifest> parseManifest(llvm::StringRef Text);

/// Reads the manifest of the bundle in \p Dir.
llvm::Expected<BundleManifest> readManifest(const std::string &Dir);

/// The names VerifyProbe values have in a manifest.
llvm::StringRef probeKindName(VerifyProbe Probe);

} // namespace torch_tidy::verify

#endif
