// A forward that runs a backward pass of its own (a potential whose forward
// computes the forces as the gradient of the energy it predicts) needs grad
// mode on: under a guard that backward pass finds no graph. Evaluating such
// a model without a guard is right, whether the gradient is taken in the
// forward's body or in a helper it calls, in view or in another unit (the
// project's function summaries say so). A model whose forward differentiates
// nothing is flagged as before.
// In view (the bodies of potential.cpp are included):
// RUN: %check_torch_tidy %s torch-eval-without-grad-guard %t -- -quiet -- -I%S/Inputs/forces -DBODIES_IN_VIEW
// In another unit, with its summaries:
// RUN: %torch_tidy -checks='-*,torch-*' --no-cache --export-summaries=%t.json %S/Inputs/forces/potential.cpp -- %mock_torch -I%S/Inputs/forces > /dev/null
// RUN: %check_torch_tidy %s torch-eval-without-grad-guard %t.summaries -- -config="{CheckOptions: {FunctionSummaries: '%t.json'}}" -- -I%S/Inputs/forces
// In another unit, without them: taken for a forward like any other.
// RUN: %check_torch_tidy --check-suffix=OPAQUE %s torch-eval-without-grad-guard %t.opaque -- -quiet -- -I%S/Inputs/forces

#include "potential.h"
#ifdef BODIES_IN_VIEW
#include "potential.cpp"
#endif
#include <vector>

double test_error(Potential &model, const std::vector<torch::Tensor> &configs,
                  const std::vector<torch::Tensor> &reference) {
  model->eval();
  double error = 0;
  for (size_t i = 0; i < configs.size(); ++i) {
    auto [energy, forces] = model->forward(configs[i]);
    // CHECK-MESSAGES-OPAQUE: :[[@LINE-1]]:29: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode
    // CHECK-FIXES-OPAQUE: {{^}}  torch::NoGradGuard no_grad;{{$}}
    error += (forces - reference[i]).pow(2).mean().item<double>();
  }
  return error;
}

double max_force(HelperPotential &model,
                 const std::vector<torch::Tensor> &configs) {
  model->eval();
  double largest = 0;
  for (const auto &config : configs) {
    auto [energy, forces] = model(config);
    // CHECK-MESSAGES-OPAQUE: :[[@LINE-1]]:29: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode
    // CHECK-FIXES-OPAQUE: {{^}}  torch::NoGradGuard no_grad;{{$}}
    largest = std::max(largest, forces.abs().max().item<double>());
  }
  return largest;
}

double energy_error(EnergyOnly &model, const std::vector<torch::Tensor> &configs,
                    const std::vector<torch::Tensor> &reference) {
  model->eval();
  double error = 0;
  for (size_t i = 0; i < configs.size(); ++i) {
    auto energy = model->forward(configs[i]);
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode
    // CHECK-MESSAGES-OPAQUE: :[[@LINE-2]]:19: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode
    // CHECK-FIXES: {{^}}  torch::NoGradGuard no_grad;{{$}}
    error += (energy - reference[i]).abs().item<double>();
  }
  return error;
}
