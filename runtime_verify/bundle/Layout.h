//===--- Layout.h - where each file of a verify bundle is -------*- C++ -*-===//
//
// A bundle is a folder that runs where LibTorch is, without LLVM or
// torch-tidy:
//
//   manifest.json        the findings, their programs and variants (Manifest.h)
//   bundle-id            a hash of the manifest; the run copies it to results/
//   settings, variants   what the run script reads (key=value; "ID VARIANT")
//   CMakeLists.txt       the variants, built by torch_tidy_bundle.cmake
//   run                  builds, runs, writes results/ (runtime_verify/bundle/run.sh)
//   probe/               the probe's sources
//   programs/<k>/        the headers program k includes, under src/ (its
//                        own folder) and include-<j>/ (its include folders)
//   findings/<n>/<variant>/<file>   the instrumented source of each variant
//   results/             written by run, read by the judge (see run.sh)
//
// The run script follows the same names; this header is their one home on
// the C++ side.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_RUNTIME_VERIFY_BUNDLE_LAYOUT_H
#define TORCH_TIDY_RUNTIME_VERIFY_BUNDLE_LAYOUT_H

#include "base/Paths.h"

#include <string>

namespace torch_tidy::verify::layout {

inline constexpr const char *Manifest = "manifest.json";
inline constexpr const char *BundleId = "bundle-id";
inline constexpr const char *Settings = "settings";
inline constexpr const char *Variants = "variants";
inline constexpr const char *RunScript = "run";
inline constexpr const char *CMakeHelpers = "torch_tidy_bundle.cmake";
inline constexpr const char *Results = "results";

/// The build target and program of a variant: "finding-1-original".
inline std::string targetName(const std::string &FindingId, const std::string &Variant) {
  return FindingId + "-" + Variant;
}

/// Where the run script puts the results of one variant.
inline std::string variantResults(const std::string &Bundle, const std::string &FindingId,
                                  const std::string &Variant) {
  return joinPath(joinPath(joinPath(Bundle, Results), FindingId), Variant);
}

/// Where a variant's program is built, in the bundle's build folder.
inline std::string programPath(const std::string &BuildDir, const std::string &Target) {
  return joinPath(joinPath(BuildDir, "programs"), Target);
}

/// "run-2.jsonl": a file of the K-th run of a variant.
inline std::string runFile(const std::string &VariantDir, unsigned K, const char *Ext) {
  return joinPath(VariantDir, "run-" + std::to_string(K) + "." + Ext);
}

} // namespace torch_tidy::verify::layout

#endif
