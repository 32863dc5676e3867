// Mock of <torch/nn/modules/dropout.h> (+ <torch/nn/options/dropout.h>).
#pragma once

#include <ostream>

#include <torch/arg.h>
#include <torch/nn/cloneable.h>
#include <torch/nn/module.h>
#include <torch/nn/pimpl.h>
#include <torch/types.h>

namespace torch {
namespace nn {

struct TORCH_API DropoutOptions {
  /* implicit */ DropoutOptions(double p = 0.5);

  /// The probability of an element to be zeroed. Default: 0.5
  TORCH_ARG(double, p) = 0.5;

  /// can optionally do the operation in-place. Default: False
  TORCH_ARG(bool, inplace) = false;
};

using Dropout2dOptions = DropoutOptions;
using Dropout3dOptions = DropoutOptions;

namespace functional {
struct TORCH_API DropoutFuncOptions {
  TORCH_ARG(double, p) = 0.5;
  TORCH_ARG(bool, training) = true;
  TORCH_ARG(bool, inplace) = false;
};
} // namespace functional

namespace detail {
template <typename Derived>
class _DropoutNd : public torch::nn::Cloneable<Derived> {
 public:
  _DropoutNd(double p) : _DropoutNd(DropoutOptions().p(p)){};

  explicit _DropoutNd(const DropoutOptions& options_ = {}) : options(options_) {
    reset();
  }

  void reset() override {}

  /// The options with which this `Module` was constructed.
  DropoutOptions options;
};
} // namespace detail

/// Applies dropout over a 1-D input.
class TORCH_API DropoutImpl : public detail::_DropoutNd<DropoutImpl> {
 public:
  using detail::_DropoutNd<DropoutImpl>::_DropoutNd;

  Tensor forward(Tensor input);

  /// Pretty prints the `Dropout` module into the given `stream`.
  void pretty_print(std::ostream& stream) const override;
};
TORCH_MODULE(Dropout);

/// Applies dropout over a 2-D input.
class TORCH_API Dropout2dImpl : public detail::_DropoutNd<Dropout2dImpl> {
 public:
  using detail::_DropoutNd<Dropout2dImpl>::_DropoutNd;

  Tensor forward(Tensor input);

  void pretty_print(std::ostream& stream) const override;
};
TORCH_MODULE(Dropout2d);

} // namespace nn
} // namespace torch
