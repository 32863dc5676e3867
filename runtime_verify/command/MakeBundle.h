//===--- MakeBundle.h - the static half of verify ---------------*- C++ -*-===//
//
// Analyses each program, places a probe for each of its growth findings and
// writes a bundle (runtime_verify/bundle/) that runs them where LibTorch
// is. `verify --bundle DIR` stops there; the plain `verify` goes on to run
// the bundle and judge it on this machine.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_RUNTIME_VERIFY_COMMAND_MAKEBUNDLE_H
#define TORCH_TIDY_RUNTIME_VERIFY_COMMAND_MAKEBUNDLE_H

#include "runtime_verify/bundle/Manifest.h"
#include "runtime_verify/command/VerifyOptions.h"
#include "runtime_verify/instrument/ProgramBuild.h"

#include "llvm/Support/Error.h"

#include <string>

namespace torch_tidy::verify {

/// The LibTorch, compiler and cache \p O asks for, with \p Flags, prepared.
llvm::Expected<ProgramBuilder> makeBuilder(const VerifyOptions &O,
                                           const std::vector<std::string> &Flags);

/// The options the programs of a bundle made with \p O are compiled with:
/// the user's flags without the include folders (each program names the
/// copies of its own).
std::vector<std::string> bundleOptions(const VerifyOptions &O);

/// Writes the bundle of O.Files to \p BundleDir and returns its manifest.
/// \p Builder gives the LibTorch and the flags the programs are parsed with;
/// it is null with -p BUILD, whose compile database gives each file's flags.
/// \p WorkDir holds the analysis' files.
llvm::Expected<BundleManifest> makeBundle(const VerifyOptions &O, const std::string &Self,
                                          const ProgramBuilder *Builder,
                                          const std::string &WorkDir,
                                          const std::string &BundleDir);

/// `verify --bundle DIR FILE...`.
int bundleMain(const VerifyOptions &O, const std::string &Self);

} // namespace torch_tidy::verify

#endif
