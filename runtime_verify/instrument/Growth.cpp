//===--- Growth.cpp - slopes and verdicts from a probe trace --------------===//
#include "runtime_verify/instrument/Growth.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

namespace torch_tidy {
namespace verify {

static llvm::Error damaged(const std::string &Path, size_t Line, const std::string &What) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "the trace " + Path + " is damaged: line " +
                                     std::to_string(Line) + " " + What);
}

/// The sample of probe \p Name that line \p Number (\p Text) of the trace
/// holds, if it is one of that probe's; \p Expected is its index.
static llvm::Expected<std::optional<ProbeSample>>
parseSample(const std::string &Path, size_t Number, llvm::StringRef Text, const std::string &Name,
            size_t Expected) {
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(Text);
  if (!V) {
    llvm::consumeError(V.takeError());
    return damaged(Path, Number, "is not a probe sample");
  }
  const llvm::json::Object *O = V->getAsObject();
  std::optional<llvm::StringRef> Probe = O ? O->getString("probe") : std::nullopt;
  if (!Probe)
    return damaged(Path, Number, "is not a probe sample");
  if (*Probe != Name)
    return std::nullopt;
  ProbeSample S;
  for (auto [Field, Out] : {std::pair<const char *, double *>{"nodes", &S.Nodes},
                            {"cpu_bytes", &S.CpuBytes},
                            {"cuda_bytes", &S.CudaBytes}}) {
    std::optional<double> N = O->getNumber(Field);
    if (!N || *N < 0)
      return damaged(Path, Number, std::string("has no count '") + Field + "'");
    *Out = *N;
  }
  if (O->getInteger("sample") != static_cast<int64_t>(Expected))
    return damaged(Path, Number,
                   "is not sample " + std::to_string(Expected) + " (samples are missing)");
  if (const llvm::json::Array *Devices = O->getArray("devices"))
    for (const llvm::json::Value &D : *Devices)
      if (auto Str = D.getAsString())
        S.Devices.push_back(Str->str());
  return S;
}

llvm::Expected<std::vector<ProbeSample>> readTrace(const std::string &Path,
                                                   const std::string &Name) {
  std::vector<ProbeSample> Samples;
  if (!llvm::sys::fs::exists(Path))
    return Samples; // no sample was taken
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return llvm::createStringError(Buffer.getError(), "cannot read the trace " + Path + ": " +
                                                          Buffer.getError().message());
  llvm::StringRef Text = (*Buffer)->getBuffer();
  llvm::SmallVector<llvm::StringRef, 64> Lines;
  Text.split(Lines, '\n');
  for (size_t I = 0; I < Lines.size(); ++I) {
    if (Lines[I].trim().empty())
      continue;
    llvm::Expected<std::optional<ProbeSample>> S =
        parseSample(Path, I + 1, Lines[I], Name, Samples.size());
    if (!S) {
      // The probe ends each sample with a newline: a last line without one
      // was cut short by a crash, and is not a sample.
      if (I + 1 == Lines.size()) {
        llvm::consumeError(S.takeError());
        break;
      }
      return S.takeError();
    }
    if (*S)
      Samples.push_back(std::move(**S));
  }
  return Samples;
}

double median(std::vector<double> Values) {
  if (Values.empty())
    return 0;
  std::sort(Values.begin(), Values.end());
  size_t N = Values.size();
  return N % 2 ? Values[N / 2] : (Values[N / 2 - 1] + Values[N / 2]) / 2;
}

double theilSenSlope(const std::vector<double> &Values) {
  std::vector<double> Slopes;
  for (size_t I = 0; I < Values.size(); ++I)
    for (size_t J = I + 1; J < Values.size(); ++J)
      Slopes.push_back((Values[J] - Values[I]) / static_cast<double>(J - I));
  return median(std::move(Slopes));
}

GrowthFigures measureGrowth(const std::vector<ProbeSample> &Samples, unsigned Warmup) {
  GrowthFigures F;
  std::vector<double> Nodes, Cpu, Cuda;
  std::set<std::string> Devices;
  for (size_t I = Warmup; I < Samples.size(); ++I) {
    Nodes.push_back(Samples[I].Nodes);
    Cpu.push_back(Samples[I].CpuBytes);
    Cuda.push_back(Samples[I].CudaBytes);
    Devices.insert(Samples[I].Devices.begin(), Samples[I].Devices.end());
  }
  F.Samples = static_cast<unsigned>(Nodes.size());
  F.NodesPerIter = theilSenSlope(Nodes);
  F.CpuBytesPerIter = theilSenSlope(Cpu);
  F.CudaBytesPerIter = theilSenSlope(Cuda);
  F.NodesPerSample = median(Nodes);
  F.CudaBytesHeld = Cuda.empty() ? 0 : Cuda.back();
  std::vector<std::string> Names(Devices.begin(), Devices.end());
  F.Devices = Names.empty() ? "no tensor" : llvm::join(Names, ", ");
  return F;
}

bool confirms(VerifyProbe Probe, const GrowthFigures &F) {
  if (Probe == VerifyProbe::ForwardResult)
    return F.NodesPerSample >= 1;
  if (F.NodesPerIter >= NodeNoiseFloor)
    return true;
  return Probe == VerifyProbe::BackwardTensor && F.bytesPerIter() >= ByteNoiseFloor;
}

static std::string number(const char *Format, double V) {
  char Buf[64];
  std::snprintf(Buf, sizeof Buf, Format, V);
  return Buf;
}

/// "512 B", "16.6 KB", "141.0 GB" (powers of 1000).
static std::string formatSize(double A) {
  if (A < 1000)
    return number("%.0f", A) + " B";
  if (A < 1e6)
    return number("%.1f", A / 1e3) + " KB";
  if (A < 1e9)
    return number("%.1f", A / 1e6) + " MB";
  return number("%.1f", A / 1e9) + " GB";
}

std::string formatBytes(double B) {
  if (std::fabs(B) < ByteNoiseFloor)
    B = 0; // below the noise floor
  return (B < 0 ? "-" : "+") + formatSize(std::fabs(B)) + "/iter";
}

static std::string nodesPerIter(double N) {
  if (std::fabs(N) < NodeNoiseFloor)
    N = 0;
  return (N < 0 ? "" : "+") + number("%.1f", N);
}

std::string describeFigures(VerifyProbe Probe, const GrowthFigures &F, bool Long) {
  std::string Bytes = formatBytes(F.bytesPerIter());
  // On a GPU, the caching allocator's own figure: what runs out first.
  std::string Cuda = F.onCuda() ? ", CUDA allocator " + formatBytes(F.CudaBytesPerIter) : "";
  if (Probe == VerifyProbe::ForwardResult) {
    if (Long)
      return number("%.1f", F.NodesPerSample) +
             " autograd nodes built and dropped per forward (waste, not growth), " + Bytes +
             " tensors (" + F.Devices + ")" + Cuda;
    return number("%.1f", F.NodesPerSample) + " nodes per forward, " + Bytes + Cuda;
  }
  if (Long)
    return nodesPerIter(F.NodesPerIter) + " autograd nodes/iter, " + Bytes + " tensors (" +
           F.Devices + ")" + Cuda;
  return nodesPerIter(F.NodesPerIter) + " nodes/iter, " + Bytes + Cuda;
}

std::optional<double> iterationsUntilFull(const GrowthFigures &F, double LimitBytes) {
  if (!F.onCuda() || F.CudaBytesPerIter < ByteNoiseFloor || LimitBytes <= 0)
    return std::nullopt;
  return std::max(0.0, std::floor((LimitBytes - F.CudaBytesHeld) / F.CudaBytesPerIter));
}

/// "1234", "86 thousand", "8.6 million": two or more significant digits.
static std::string roughCount(double N) {
  if (N < 1e5)
    return number("%.0f", N);
  if (N < 1e6)
    return number("%.0f", N / 1e3) + " thousand";
  if (N < 1e9)
    return number("%.1f", N / 1e6) + " million";
  return number("%.1f", N / 1e9) + " billion";
}

std::string describeOutOfMemory(double Iterations, double LimitBytes) {
  return "at this rate, out of memory after ~" + roughCount(Iterations) + " iterations (" +
         formatSize(LimitBytes) + " limit)";
}

} // namespace verify
} // namespace torch_tidy
