// Mock of <torch/nn/modules/activation.h> (+ <torch/nn/options/activation.h>).
#pragma once

#include <cstdint>
#include <ostream>

#include <torch/arg.h>
#include <torch/nn/cloneable.h>
#include <torch/nn/module.h>
#include <torch/nn/pimpl.h>
#include <torch/types.h>

namespace torch {
namespace nn {

struct TORCH_API ReLUOptions {
  /* implicit */ ReLUOptions(bool inplace = false);

  /// can optionally do the operation in-place. Default: False
  TORCH_ARG(bool, inplace);
};

struct TORCH_API LeakyReLUOptions {
  TORCH_ARG(double, negative_slope) = 1e-2;
  TORCH_ARG(bool, inplace) = false;
};

struct TORCH_API SoftmaxOptions {
  SoftmaxOptions(int64_t dim);
  TORCH_ARG(int64_t, dim);
};

struct TORCH_API LogSoftmaxOptions {
  LogSoftmaxOptions(int64_t dim);
  TORCH_ARG(int64_t, dim);
};

namespace functional {
using ReLUFuncOptions = ReLUOptions;
using LeakyReLUFuncOptions = LeakyReLUOptions;

struct TORCH_API SoftmaxFuncOptions {
  SoftmaxFuncOptions(int64_t dim);
  TORCH_ARG(int64_t, dim);
  TORCH_ARG(c10::optional<torch::Dtype>, dtype) = c10::nullopt;
};

struct TORCH_API LogSoftmaxFuncOptions {
  LogSoftmaxFuncOptions(int64_t dim);
  TORCH_ARG(int64_t, dim);
  TORCH_ARG(c10::optional<torch::Dtype>, dtype) = c10::nullopt;
};
} // namespace functional

/// Applies the ReLU function element-wise.
class TORCH_API ReLUImpl : public torch::nn::Cloneable<ReLUImpl> {
 public:
  explicit ReLUImpl(const ReLUOptions& options_ = {});

  Tensor forward(Tensor input);

  void reset() override;

  /// Pretty prints the `ReLU` module into the given `stream`.
  void pretty_print(std::ostream& stream) const override;

  /// The options with which this `Module` was constructed.
  ReLUOptions options;
};
TORCH_MODULE(ReLU);

class TORCH_API LeakyReLUImpl : public torch::nn::Cloneable<LeakyReLUImpl> {
 public:
  explicit LeakyReLUImpl(const LeakyReLUOptions& options_ = {});
  Tensor forward(Tensor input);
  void reset() override;
  void pretty_print(std::ostream& stream) const override;
  LeakyReLUOptions options;
};
TORCH_MODULE(LeakyReLU);

class TORCH_API SigmoidImpl : public torch::nn::Cloneable<SigmoidImpl> {
 public:
  Tensor forward(const Tensor& input);
  void reset() override;
  void pretty_print(std::ostream& stream) const override;
};
TORCH_MODULE(Sigmoid);

class TORCH_API TanhImpl : public torch::nn::Cloneable<TanhImpl> {
 public:
  Tensor forward(const Tensor& input);
  void reset() override;
  void pretty_print(std::ostream& stream) const override;
};
TORCH_MODULE(Tanh);

class TORCH_API SoftmaxImpl : public torch::nn::Cloneable<SoftmaxImpl> {
 public:
  explicit SoftmaxImpl(int64_t dim) : SoftmaxImpl(SoftmaxOptions(dim)) {}
  explicit SoftmaxImpl(const SoftmaxOptions& options_);
  void reset() override;
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input);
  SoftmaxOptions options;
};
TORCH_MODULE(Softmax);

class TORCH_API LogSoftmaxImpl : public torch::nn::Cloneable<LogSoftmaxImpl> {
 public:
  explicit LogSoftmaxImpl(int64_t dim)
      : LogSoftmaxImpl(LogSoftmaxOptions(dim)) {}
  explicit LogSoftmaxImpl(const LogSoftmaxOptions& options_);
  void reset() override;
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input);
  LogSoftmaxOptions options;
};
TORCH_MODULE(LogSoftmax);

} // namespace nn
} // namespace torch
