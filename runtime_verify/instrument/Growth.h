//===--- Growth.h - slopes and verdicts from a probe trace ----------------===//
//
// A sample is what the probe recorded at the end of one iteration. Growth is
// the Theil-Sen slope (the median of the slopes between every pair of
// samples) over the samples after the warm-up, so that a few outliers (a
// lazily created optimizer state, a caching allocator's first blocks) move
// nothing. A slope below the noise floor counts as no growth.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_RUNTIME_VERIFY_GROWTH_H
#define TORCH_TIDY_RUNTIME_VERIFY_GROWTH_H

#include "checks/CheckTable.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace torch_tidy {
namespace verify {

/// Below these a slope is noise: half an autograd node, and 256 bytes, per
/// iteration.
constexpr double NodeNoiseFloor = 0.5;
constexpr double ByteNoiseFloor = 256.0;

struct ProbeSample {
  double Nodes = 0;
  double CpuBytes = 0;
  double CudaBytes = 0;
  std::vector<std::string> Devices;
};

/// Reads the samples of probe `Name` from a JSON-lines trace.
llvm::Expected<std::vector<ProbeSample>> readTrace(const std::string &Path,
                                                   const std::string &Name);

/// Theil-Sen slope of Values against their index (0 for fewer than 2).
double theilSenSlope(const std::vector<double> &Values);
double median(std::vector<double> Values);

/// What a run measured after the warm-up samples.
struct GrowthFigures {
  double NodesPerIter = 0;
  double CpuBytesPerIter = 0;
  double CudaBytesPerIter = 0;
  double NodesPerSample = 0; ///< median: the graph one forward builds
  unsigned Samples = 0;      ///< after the warm-up
  std::string Devices;       ///< "cpu", "cuda:0", "cpu, cuda:0"

  double bytesPerIter() const { return CpuBytesPerIter + CudaBytesPerIter; }
};

GrowthFigures measureGrowth(const std::vector<ProbeSample> &Samples, unsigned Warmup);

/// Whether the figures show what the check claims, by how its findings are
/// watched: a watched target's graph grows (a backward's tensor: or the
/// live bytes grow, since a retained graph keeps its saved tensors); a
/// forward's result: every forward builds a graph.
bool confirms(VerifyProbe Probe, const GrowthFigures &Figures);

/// "+7.0 autograd nodes/iter, +0 B/iter tensors (cpu)" and friends.
std::string formatBytes(double BytesPerIter);
std::string describeFigures(VerifyProbe Probe, const GrowthFigures &F, bool Long);

} // namespace verify
} // namespace torch_tidy

#endif
