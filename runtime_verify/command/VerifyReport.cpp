//===--- VerifyReport.cpp - printing what `torch-tidy verify` found -------===//
#include "runtime_verify/command/VerifyReport.h"

#include "llvm/Support/JSON.h"

namespace torch_tidy::verify {

std::string verdictOf(const FindingResult &R) {
  if (!R.Error.empty() || !R.Original.Ran)
    return "could not run";
  return R.Original.Confirmed ? "confirmed" : "not confirmed";
}

static std::string runsNote(const VariantResult &V) {
  if (V.RepeatVerdicts.size() < 2)
    return "";
  if (V.stable())
    return " (same verdict in " + std::to_string(V.RepeatVerdicts.size()) + " runs)";
  return " (UNSTABLE: the verdict changed between " + std::to_string(V.RepeatVerdicts.size()) +
         " runs)";
}

void printText(llvm::raw_ostream &OS, const std::vector<FindingResult> &Results) {
  for (const FindingResult &R : Results) {
    OS << R.File << ":" << R.Line << ": " << R.Check << ": ";
    std::string Verdict = verdictOf(R);
    if (Verdict == "could not run") {
      OS << "could not run: " << (R.Error.empty() ? R.Original.Error : R.Error) << "\n";
      continue;
    }
    OS << Verdict << ": " << describeFigures(R.Probe, R.Original.Figures, true)
       << runsNote(R.Original);
    if (R.Original.OutOfMemoryAfter)
      OS << "; " << describeOutOfMemory(*R.Original.OutOfMemoryAfter, R.Original.MemoryLimit);
    OS << "; with fix: ";
    if (!R.HasFix)
      OS << "no fix-it to apply";
    else if (!R.Fixed.Ran)
      OS << "could not run: " << R.Fixed.Error;
    else
      OS << describeFigures(R.Probe, R.Fixed.Figures, false)
         << (R.Fixed.Confirmed ? " (still confirmed)" : "") << runsNote(R.Fixed);
    OS << "\n";
  }
}

llvm::json::Value variantJson(const VariantResult &V) {
  if (!V.Ran)
    return llvm::json::Object{{"ran", false}, {"error", V.Error}};
  const GrowthFigures &F = V.Figures;
  llvm::json::Array Runs;
  for (bool B : V.RepeatVerdicts)
    Runs.push_back(B);
  llvm::json::Object O{{"ran", true},
                       {"confirmed", V.Confirmed},
                       {"nodes_per_iter", F.NodesPerIter},
                       {"nodes_per_sample", F.NodesPerSample},
                       {"bytes_per_iter", F.bytesPerIter()},
                       {"cpu_bytes_per_iter", F.CpuBytesPerIter},
                       {"cuda_bytes_per_iter", F.CudaBytesPerIter},
                       {"cuda_bytes_held", F.CudaBytesHeld},
                       {"devices", F.Devices},
                       {"samples", F.Samples},
                       {"run_verdicts", std::move(Runs)}};
  if (!V.RunSeconds.empty())
    O["run_seconds"] = llvm::json::Array(V.RunSeconds);
  if (V.OutOfMemoryAfter) {
    O["out_of_memory_after_iterations"] = *V.OutOfMemoryAfter;
    O["memory_limit_bytes"] = V.MemoryLimit;
  }
  return O;
}

void printJson(llvm::raw_ostream &OS, const std::vector<FindingResult> &Results) {
  llvm::json::Array All;
  for (const FindingResult &R : Results) {
    llvm::json::Object O{{"file", R.File},     {"line", R.Line},   {"check", R.Check},
                         {"verdict", verdictOf(R)}, {"target", R.Target}, {"probe", R.Where}};
    if (!R.Error.empty())
      O["error"] = R.Error;
    O["original"] = variantJson(R.Original);
    if (R.HasFix)
      O["fixed"] = variantJson(R.Fixed);
    All.push_back(std::move(O));
  }
  OS << llvm::formatv("{0:2}", llvm::json::Value(std::move(All))) << "\n";
}

void printResults(llvm::raw_ostream &OS, const std::vector<FindingResult> &Results,
                  llvm::StringRef Format, const std::vector<std::string> &WithoutFindings) {
  if (Format == "json") {
    printJson(OS, Results);
    return;
  }
  printText(OS, Results);
  for (const std::string &File : WithoutFindings)
    OS << File << ": no growth finding to verify\n";
}

int verifyError(const std::string &Message) {
  llvm::errs() << "torch-tidy verify: error: " << Message << "\n";
  return 2;
}

int exitCodeFor(const std::vector<FindingResult> &Results) {
  int Code = 0;
  for (const FindingResult &R : Results) {
    std::string V = verdictOf(R);
    if (V == "could not run")
      return 2;
    if (V == "confirmed")
      Code = 1;
  }
  return Code;
}

} // namespace torch_tidy::verify
