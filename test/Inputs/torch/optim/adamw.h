// Mock of <torch/optim/adamw.h>.
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

struct TORCH_API AdamWOptions : public OptimizerCloneableOptions<AdamWOptions> {
  AdamWOptions(double lr = 1e-3);
  TORCH_ARG(double, lr) = 1e-3;
  typedef std::tuple<double, double> betas_t;
  TORCH_ARG(betas_t, betas) = std::make_tuple(0.9, 0.999);
  TORCH_ARG(double, eps) = 1e-8;
  TORCH_ARG(double, weight_decay) = 1e-2;
  TORCH_ARG(bool, amsgrad) = false;

 public:
  ~AdamWOptions() override = default;
  double get_lr() const override;
  void set_lr(const double lr) override;
};

class TORCH_API AdamW : public Optimizer {
 public:
  explicit AdamW(
      std::vector<OptimizerParamGroup> param_groups,
      AdamWOptions defaults = {})
      : Optimizer(
            std::move(param_groups),
            std::make_unique<AdamWOptions>(defaults)) {}
  explicit AdamW(std::vector<Tensor> params, AdamWOptions defaults = {})
      : AdamW({std::move(OptimizerParamGroup(params))}, defaults) {}

  torch::Tensor step(LossClosure closure = nullptr) override;
};

} // namespace optim
} // namespace torch
