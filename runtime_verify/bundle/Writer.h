//===--- Writer.h - writing a verify bundle ---------------------*- C++ -*-===//
//
// The static half of verify ends here: the instrumented variants of every
// finding, the headers their programs include, the probe's sources, the
// build (CMakeLists.txt), the run script and the manifest, in one folder
// that needs neither LLVM nor torch-tidy to run (Layout.h).
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_RUNTIME_VERIFY_BUNDLE_WRITER_H
#define TORCH_TIDY_RUNTIME_VERIFY_BUNDLE_WRITER_H

#include "runtime_verify/bundle/Carry.h"
#include "runtime_verify/bundle/Manifest.h"
#include "runtime_verify/instrument/Findings.h"
#include "runtime_verify/instrument/Instrumenter.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace torch_tidy::verify {

/// One program of a bundle, as the static half found it.
struct ProgramInput {
  std::string File; ///< as the verdicts name it
  std::string Base; ///< its file name
  std::string Code; ///< its text
  CarryPlan Carry;
  std::vector<Finding> Findings;
  std::vector<ProbePlan> Plans; ///< one per finding
};

/// What is known of finding \p F with probe \p P before it runs.
FindingFacts findingFacts(const Finding &F, const ProbePlan &P);

/// Writes the bundle of \p Programs to \p Dir and returns its manifest. The
/// bundle is made in a new folder next to \p Dir and renamed into place, so
/// that \p Dir holds a whole bundle or none; a bundle already there is
/// replaced, anything else there is left alone and refused.
llvm::Expected<BundleManifest> writeBundle(const std::string &Dir, const BundleSettings &Settings,
                                           const std::vector<ProgramInput> &Programs);

/// Whether \p Dir may take a bundle: it does not exist, or is empty, or
/// holds a bundle (which is replaced).
llvm::Error checkBundleFolder(const std::string &Dir);

} // namespace torch_tidy::verify

#endif
