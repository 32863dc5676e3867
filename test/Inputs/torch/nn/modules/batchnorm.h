// Mock of <torch/nn/modules/batchnorm.h> (+ <torch/nn/options/batchnorm.h>).
// Simplified hierarchy: real BatchNormImplBase derives from NormImplBase.
#pragma once

#include <cstddef>
#include <cstdint>
#include <ostream>

#include <torch/arg.h>
#include <torch/nn/cloneable.h>
#include <torch/nn/module.h>
#include <torch/nn/pimpl.h>
#include <torch/types.h>

namespace torch {
namespace nn {

struct TORCH_API BatchNormOptions {
  /* implicit */ BatchNormOptions(int64_t num_features);
  TORCH_ARG(int64_t, num_features);
  TORCH_ARG(double, eps) = 1e-5;
  TORCH_ARG(c10::optional<double>, momentum) = 0.1;
  TORCH_ARG(bool, affine) = true;
  TORCH_ARG(bool, track_running_stats) = true;
};

using BatchNorm1dOptions = BatchNormOptions;
using BatchNorm2dOptions = BatchNormOptions;
using BatchNorm3dOptions = BatchNormOptions;

/// Base class for all (dimension-specialized) batchnorm modules.
template <size_t D, typename Derived>
class BatchNormImplBase : public torch::nn::Cloneable<Derived> {
 public:
  BatchNormImplBase(const BatchNormOptions& options_) : options(options_) {}

  Tensor forward(const Tensor& input) {
    return input;
  }

  void reset() override {}
  void reset_running_stats();
  void reset_parameters();

  void pretty_print(std::ostream& stream) const override {
    (void)stream;
  }

  BatchNormOptions options;
  Tensor weight;
  Tensor bias;
  Tensor running_mean;
  Tensor running_var;
  Tensor num_batches_tracked;
};

class TORCH_API BatchNorm1dImpl : public BatchNormImplBase<1, BatchNorm1dImpl> {
 public:
  using BatchNormImplBase<1, BatchNorm1dImpl>::BatchNormImplBase;
};
TORCH_MODULE(BatchNorm1d);

class TORCH_API BatchNorm2dImpl : public BatchNormImplBase<2, BatchNorm2dImpl> {
 public:
  using BatchNormImplBase<2, BatchNorm2dImpl>::BatchNormImplBase;
};
TORCH_MODULE(BatchNorm2d);

class TORCH_API BatchNorm3dImpl : public BatchNormImplBase<3, BatchNorm3dImpl> {
 public:
  using BatchNormImplBase<3, BatchNorm3dImpl>::BatchNormImplBase;
};
TORCH_MODULE(BatchNorm3d);

} // namespace nn
} // namespace torch
