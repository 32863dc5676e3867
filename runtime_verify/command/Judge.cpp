//===--- Judge.cpp - verdicts from what a bundle's run left ---------------===//
#include "runtime_verify/command/Judge.h"
#include "runtime_verify/command/JudgeSarif.h"
#include "runtime_verify/command/VerifyRun.h"

#include "base/Paths.h"
#include "runtime_verify/bundle/Layout.h"
#include "runtime_verify/bundle/Results.h"
#include "runtime_verify/instrument/ProgramBuild.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

namespace torch_tidy::verify {

namespace fs = llvm::sys::fs;

static std::string trimmedText(const std::string &Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  return Buffer ? (*Buffer)->getBuffer().trim().str() : std::string();
}

/// Why none of the bundle's findings can be judged; empty when they can.
static std::string commonFailure(const std::string &Dir) {
  std::string Results = joinPath(Dir, layout::Results);
  if (!fs::is_directory(Results))
    return "the bundle has not been run (no " + Results + "; run " +
           joinPath(Dir, layout::RunScript) + " first)";
  std::string Made = trimmedText(joinPath(Dir, layout::BundleId));
  std::string Ran = trimmedText(joinPath(Results, layout::BundleId));
  if (Ran.empty())
    return "the results in " + Results + " are incomplete (no " + layout::BundleId +
           ": the run did not start)";
  if (Ran != Made)
    return "the results in " + Results + " are another bundle's (run this bundle, or copy its "
           "own results)";
  std::string Configure = joinPath(Results, "configure");
  llvm::Expected<std::optional<ProcessResult>> Status = readStatus(Configure + ".status");
  if (!Status)
    return llvm::toString(Status.takeError());
  if (*Status && !(*Status)->succeeded())
    return "configuring the bundle's build failed (" + (*Status)->describe() +
           "): " + firstErrorLine(Configure + ".log");
  return "";
}

/// Variant \p Name of finding \p F: built, then run.
static VariantResult judgeVariant(const std::string &Dir, const BundleManifest &M,
                                  const BundleFinding &F, const std::string &Name) {
  VariantResult V;
  const BundleVariant *Variant = nullptr;
  for (const BundleVariant &C : F.Variants)
    if (C.Name == Name)
      Variant = &C;
  if (!Variant) {
    V.Error = "the bundle's manifest has no " + Name + " variant of " + F.Id;
    return V;
  }
  if (!Variant->Error.empty()) {
    V.Error = Variant->Error;
    return V;
  }
  std::string VariantDir = layout::variantResults(Dir, F.Id, Name);
  std::string Build = joinPath(VariantDir, "build");
  llvm::Expected<std::optional<ProcessResult>> Built = readStatus(Build + ".status");
  if (!Built) {
    V.Error = llvm::toString(Built.takeError());
    return V;
  }
  if (!*Built) {
    V.Error = "it was not built (no " + Build + ".status)";
    return V;
  }
  if (!(*Built)->succeeded()) {
    V.Error = compileFailure(Variant->Source, **Built, Build + ".log");
    return V;
  }
  return judgeRuns(VariantDir, F.ProbeName, F.Probe, M.Settings);
}

/// The total memory nvidia-smi reported for the GPU the figures of \p V
/// come from ("index, name, MiB" lines in results/gpus), or 0.
static double gpuMemory(const std::string &Dir, const VariantResult &V) {
  llvm::StringRef Devices = V.Figures.Devices;
  size_t At = Devices.find("cuda:");
  if (!V.Ran || At == llvm::StringRef::npos)
    return 0;
  llvm::StringRef Index = Devices.substr(At + 5).take_while(llvm::isDigit);
  std::string Text = trimmedText(joinPath(joinPath(Dir, layout::Results), "gpus"));
  llvm::SmallVector<llvm::StringRef, 8> Lines;
  llvm::StringRef(Text).split(Lines, '\n');
  for (llvm::StringRef Line : Lines) {
    llvm::SmallVector<llvm::StringRef, 3> Fields;
    Line.split(Fields, ',');
    double MiB = 0;
    if (Fields.size() == 3 && Fields[0].trim() == Index && !Fields[2].trim().getAsDouble(MiB))
      return MiB * 1024 * 1024;
  }
  return 0;
}

static void estimateOutOfMemory(VariantResult &V, double Limit) {
  if (!V.Ran || Limit <= 0)
    return;
  V.OutOfMemoryAfter = iterationsUntilFull(V.Figures, Limit);
  V.MemoryLimit = Limit;
}

llvm::Expected<Judgement> judgeBundle(const std::string &Dir, double MemoryLimit) {
  llvm::Expected<BundleManifest> M = readManifest(Dir);
  if (!M)
    return M.takeError();
  Judgement J;
  J.Manifest = std::move(*M);
  std::vector<bool> HasFindings(J.Manifest.Programs.size(), false);
  std::string Common = commonFailure(Dir);
  for (const BundleFinding &F : J.Manifest.Findings) {
    HasFindings[F.Program] = true;
    FindingResult R = FindingResult::of(J.Manifest.fileOf(F), F);
    if (R.Error.empty() && !Common.empty())
      R.Error = Common;
    if (R.Error.empty()) {
      R.Original = judgeVariant(Dir, J.Manifest, F, "original");
      if (R.HasFix && R.Original.Ran)
        R.Fixed = judgeVariant(Dir, J.Manifest, F, "fixed");
      double Limit = MemoryLimit > 0 ? MemoryLimit : gpuMemory(Dir, R.Original);
      estimateOutOfMemory(R.Original, Limit);
      estimateOutOfMemory(R.Fixed, Limit);
    }
    J.Results.push_back(std::move(R));
  }
  for (size_t K = 0; K < HasFindings.size(); ++K)
    if (!HasFindings[K])
      J.WithoutFindings.push_back(J.Manifest.Programs[K].File);
  return J;
}

int reportJudgement(const VerifyOptions &O, const Judgement &J) {
  printResults(llvm::outs(), J.Results, O.Format, J.WithoutFindings);
  if (!O.SarifIn.empty()) {
    unsigned Unmatched = 0;
    if (llvm::Error E = markSarif(O.SarifIn, O.SarifOut, J.Results, Unmatched))
      return verifyError(llvm::toString(std::move(E)));
    if (Unmatched)
      llvm::errs() << "torch-tidy verify: " << Unmatched << " of " << J.Results.size()
                   << " verdicts have no result in " << O.SarifIn << "\n";
  }
  return exitCodeFor(J.Results);
}

int judgeMain(const VerifyOptions &O) {
  llvm::Expected<Judgement> J = judgeBundle(O.JudgeDir, O.MemoryLimit);
  if (!J)
    return verifyError(llvm::toString(J.takeError()));
  return reportJudgement(O, *J);
}

} // namespace torch_tidy::verify
