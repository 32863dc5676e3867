// Mock of <torch/nn/functional.h> (real: split over torch/nn/functional/*.h).
// Usually used as `namespace F = torch::nn::functional;`.
#pragma once

#include <torch/nn/modules/activation.h>
#include <torch/nn/modules/dropout.h>
#include <torch/nn/modules/loss.h>
#include <torch/types.h>

namespace torch {
namespace nn {
namespace functional {

inline Tensor relu(Tensor input, const ReLUFuncOptions& options = {}) {
  return options.inplace() ? torch::relu_(input) : torch::relu(input);
}

inline Tensor leaky_relu(Tensor input, const LeakyReLUFuncOptions& options = {}) {
  (void)options;
  return input;
}

inline Tensor softmax(const Tensor& input, const SoftmaxFuncOptions& options) {
  return torch::softmax(input, options.dim(), options.dtype());
}

inline Tensor log_softmax(
    const Tensor& input,
    const LogSoftmaxFuncOptions& options) {
  return torch::log_softmax(input, options.dim(), options.dtype());
}

inline Tensor dropout(Tensor input, const DropoutFuncOptions& options = {}) {
  return torch::dropout(input, options.p(), options.training());
}

inline Tensor linear(
    const Tensor& input,
    const Tensor& weight,
    const Tensor& bias = {}) {
  return torch::linear(input, weight, bias);
}

inline Tensor mse_loss(
    const Tensor& input,
    const Tensor& target,
    const MSELossFuncOptions& options = {}) {
  (void)options;
  return torch::mse_loss(input, target);
}

inline Tensor nll_loss(
    const Tensor& input,
    const Tensor& target,
    const NLLLossFuncOptions& options = {}) {
  return torch::nll_loss(input, target, options.weight());
}

inline Tensor cross_entropy(
    const Tensor& input,
    const Tensor& target,
    const CrossEntropyFuncOptions& options = {}) {
  return torch::cross_entropy_loss(input, target, options.weight());
}

inline Tensor binary_cross_entropy(
    const Tensor& input,
    const Tensor& target,
    const BinaryCrossEntropyFuncOptions& options = {}) {
  return torch::binary_cross_entropy(input, target, options.weight());
}

} // namespace functional
} // namespace nn
} // namespace torch
