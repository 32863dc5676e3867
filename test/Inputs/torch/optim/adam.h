// Mock of <torch/optim/adam.h>.
#pragma once

#include <memory>
#include <tuple>
#include <utility>
#include <vector>

#include <torch/arg.h>
#include <torch/optim/optimizer.h>
#include <torch/types.h>

namespace torch {
namespace optim {

struct TORCH_API AdamOptions : public OptimizerCloneableOptions<AdamOptions> {
  AdamOptions(double lr = 1e-3);
  TORCH_ARG(double, lr) = 1e-3;
  typedef std::tuple<double, double> betas_t;
  TORCH_ARG(betas_t, betas) = std::make_tuple(0.9, 0.999);
  TORCH_ARG(double, eps) = 1e-8;
  TORCH_ARG(double, weight_decay) = 0;
  TORCH_ARG(bool, amsgrad) = false;

 public:
  ~AdamOptions() override = default;
  double get_lr() const override;
  void set_lr(const double lr) override;
};

class TORCH_API Adam : public Optimizer {
 public:
  explicit Adam(
      std::vector<OptimizerParamGroup> param_groups,
      AdamOptions defaults = {})
      : Optimizer(
            std::move(param_groups),
            std::make_unique<AdamOptions>(defaults)) {}
  explicit Adam(std::vector<Tensor> params, AdamOptions defaults = {})
      : Adam({std::move(OptimizerParamGroup(params))}, defaults) {}

  torch::Tensor step(LossClosure closure = nullptr) override;
};

} // namespace optim
} // namespace torch
