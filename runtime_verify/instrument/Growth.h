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

#include <optional>
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

/// Reads the samples of probe `Name` from a JSON-lines trace: none when
/// there is no trace; a last line cut short (by a crash) is not a sample;
/// an error when any other line is not a sample, or samples are missing.
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
  double CudaBytesHeld = 0;  ///< the CUDA allocator's bytes at the last sample
  unsigned Samples = 0;      ///< after the warm-up
  std::string Devices;       ///< "cpu", "cuda:0", "cpu, cuda:0"

  double bytesPerIter() const { return CpuBytesPerIter + CudaBytesPerIter; }
  bool onCuda() const { return llvm::StringRef(Devices).contains("cuda"); }
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

/// At the CUDA allocator's rate, the iterations until \p LimitBytes are
/// held; none when the figures are not from a GPU or do not grow.
std::optional<double> iterationsUntilFull(const GrowthFigures &F, double LimitBytes);
/// "at this rate, out of memory after ~8.6 million iterations (80.0 GB limit)".
std::string describeOutOfMemory(double Iterations, double LimitBytes);

} // namespace verify
} // namespace torch_tidy

#endif
