//===--- Growth.cpp - slopes and verdicts from a probe trace --------------===//
#include "runtime_verify/instrument/Growth.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

namespace torch_tidy {
namespace verify {

llvm::Expected<std::vector<ProbeSample>> readTrace(const std::string &Path,
                                                   const std::string &Name) {
  std::vector<ProbeSample> Samples;
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return Samples; // no sample was taken
  llvm::SmallVector<llvm::StringRef, 64> Lines;
  (*Buffer)->getBuffer().split(Lines, '\n', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef Line : Lines) {
    llvm::Expected<llvm::json::Value> V = llvm::json::parse(Line);
    if (!V) {
      llvm::consumeError(V.takeError());
      continue; // a line cut short by a crash
    }
    const llvm::json::Object *O = V->getAsObject();
    if (!O || O->getString("probe") != llvm::StringRef(Name))
      continue;
    ProbeSample S;
    S.Nodes = O->getNumber("nodes").value_or(0);
    S.CpuBytes = O->getNumber("cpu_bytes").value_or(0);
    S.CudaBytes = O->getNumber("cuda_bytes").value_or(0);
    if (const llvm::json::Array *Devices = O->getArray("devices"))
      for (const llvm::json::Value &D : *Devices)
        if (auto Str = D.getAsString())
          S.Devices.push_back(Str->str());
    Samples.push_back(std::move(S));
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

std::string formatBytes(double B) {
  if (std::fabs(B) < ByteNoiseFloor)
    B = 0; // below the noise floor
  std::string Sign = B < 0 ? "-" : "+";
  double A = std::fabs(B);
  if (A < 1000)
    return Sign + number("%.0f", A) + " B/iter";
  if (A < 1e6)
    return Sign + number("%.1f", A / 1e3) + " KB/iter";
  return Sign + number("%.1f", A / 1e6) + " MB/iter";
}

static std::string nodesPerIter(double N) {
  if (std::fabs(N) < NodeNoiseFloor)
    N = 0;
  return (N < 0 ? "" : "+") + number("%.1f", N);
}

std::string describeFigures(VerifyProbe Probe, const GrowthFigures &F, bool Long) {
  std::string Bytes = formatBytes(F.bytesPerIter());
  if (Probe == VerifyProbe::ForwardResult) {
    if (Long)
      return number("%.1f", F.NodesPerSample) +
             " autograd nodes built and dropped per forward (waste, not growth), " + Bytes +
             " tensors (" + F.Devices + ")";
    return number("%.1f", F.NodesPerSample) + " nodes per forward, " + Bytes;
  }
  if (Long)
    return nodesPerIter(F.NodesPerIter) + " autograd nodes/iter, " + Bytes + " tensors (" +
           F.Devices + ")";
  return nodesPerIter(F.NodesPerIter) + " nodes/iter, " + Bytes;
}

} // namespace verify
} // namespace torch_tidy
