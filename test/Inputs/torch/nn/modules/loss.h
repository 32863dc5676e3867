// Mock of <torch/nn/modules/loss.h> (+ <torch/nn/options/loss.h>).
#pragma once

#include <cstdint>
#include <ostream>
#include <variant>

#include <torch/arg.h>
#include <torch/enum.h>
#include <torch/nn/cloneable.h>
#include <torch/nn/module.h>
#include <torch/nn/pimpl.h>
#include <torch/types.h>

namespace torch {
namespace nn {

struct TORCH_API MSELossOptions {
  typedef std::variant<enumtype::kNone, enumtype::kMean, enumtype::kSum>
      reduction_t;

  MSELossOptions() {}
  MSELossOptions(torch::enumtype::kNone reduction) : reduction_(torch::kNone) {
    (void)reduction;
  }
  MSELossOptions(torch::enumtype::kMean reduction) : reduction_(torch::kMean) {
    (void)reduction;
  }
  MSELossOptions(torch::enumtype::kSum reduction) : reduction_(torch::kSum) {
    (void)reduction;
  }

  TORCH_ARG(reduction_t, reduction) = torch::kMean;
};

struct TORCH_API NLLLossOptions {
  typedef std::variant<enumtype::kNone, enumtype::kMean, enumtype::kSum>
      reduction_t;

  TORCH_ARG(Tensor, weight) = {};
  TORCH_ARG(int64_t, ignore_index) = -100;
  TORCH_ARG(reduction_t, reduction) = torch::kMean;
};

struct TORCH_API CrossEntropyLossOptions {
  typedef std::variant<enumtype::kNone, enumtype::kMean, enumtype::kSum>
      reduction_t;

  TORCH_ARG(Tensor, weight) = {};
  TORCH_ARG(int64_t, ignore_index) = -100;
  TORCH_ARG(reduction_t, reduction) = torch::kMean;
  TORCH_ARG(double, label_smoothing) = 0.0;
};

struct TORCH_API BCELossOptions {
  typedef std::variant<enumtype::kNone, enumtype::kMean, enumtype::kSum>
      reduction_t;

  TORCH_ARG(Tensor, weight) = {};
  TORCH_ARG(reduction_t, reduction) = torch::kMean;
};

namespace functional {
using MSELossFuncOptions = MSELossOptions;
using NLLLossFuncOptions = NLLLossOptions;
using CrossEntropyFuncOptions = CrossEntropyLossOptions;
using BinaryCrossEntropyFuncOptions = BCELossOptions;
} // namespace functional

struct TORCH_API MSELossImpl : Cloneable<MSELossImpl> {
  explicit MSELossImpl(const MSELossOptions& options_ = {});
  void reset() override;
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input, const Tensor& target);
  MSELossOptions options;
};
TORCH_MODULE(MSELoss);

struct TORCH_API NLLLossImpl : Cloneable<NLLLossImpl> {
  explicit NLLLossImpl(const NLLLossOptions& options_ = {});
  void reset() override;
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input, const Tensor& target);
  NLLLossOptions options;
  Tensor weight;
};
TORCH_MODULE(NLLLoss);

struct TORCH_API CrossEntropyLossImpl : public Cloneable<CrossEntropyLossImpl> {
  explicit CrossEntropyLossImpl(const CrossEntropyLossOptions& options_ = {});
  void reset() override;
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input, const Tensor& target);
  CrossEntropyLossOptions options;
  Tensor weight;
};
TORCH_MODULE(CrossEntropyLoss);

struct TORCH_API BCELossImpl : Cloneable<BCELossImpl> {
  explicit BCELossImpl(const BCELossOptions& options_ = {});
  void reset() override;
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input, const Tensor& target);
  BCELossOptions options;
};
TORCH_MODULE(BCELoss);

} // namespace nn
} // namespace torch
