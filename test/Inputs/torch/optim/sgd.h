// Mock of <torch/optim/sgd.h>.
#pragma once

#include <memory>
#include <utility>
#include <vector>

#include <torch/arg.h>
#include <torch/optim/optimizer.h>
#include <torch/types.h>

namespace torch {
namespace optim {

struct TORCH_API SGDOptions : public OptimizerCloneableOptions<SGDOptions> {
  SGDOptions(double lr);
  TORCH_ARG(double, lr);
  TORCH_ARG(double, momentum) = 0;
  TORCH_ARG(double, dampening) = 0;
  TORCH_ARG(double, weight_decay) = 0;
  TORCH_ARG(bool, nesterov) = false;

 public:
  ~SGDOptions() override = default;
  double get_lr() const override;
  void set_lr(const double lr) override;
};

class TORCH_API SGD : public Optimizer {
 public:
  explicit SGD(
      std::vector<OptimizerParamGroup> param_groups,
      SGDOptions defaults)
      : Optimizer(
            std::move(param_groups),
            std::make_unique<SGDOptions>(defaults)) {}

  explicit SGD(
      std::vector<Tensor> params,
      // NOLINTNEXTLINE(performance-move-const-arg)
      SGDOptions defaults)
      : SGD({std::move(OptimizerParamGroup(params))}, defaults) {}

  torch::Tensor step(LossClosure closure = nullptr) override;
};

} // namespace optim
} // namespace torch
