// A loss summed over the steps of an unrolled model (a MuZero update) and
// then combined into the loss that an optimiser wrapper of the project
// differentiates (`optimiser_.step(loss)`, whose backward pass is in its
// own body): the sum is consumed once per update, as one differentiated
// right after the loop is. The wrapper's body in another unit counts as
// evidence through the function summaries, which record what the code in
// view there differentiates ("differentiates_in_view"); without them the
// call is opaque, and code out of view is no evidence (the OPAQUE run).
// A sum that only goes to a function that differentiates nothing grows.
// RUN: %torch_tidy -checks='-*,torch-*' --no-cache --export-summaries=%t.json %S/Inputs/optimiser-wrapper/optimiser_wrapper.cpp -- %mock_torch -I%S/Inputs/optimiser-wrapper > /dev/null
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: %check_torch_tidy %s torch-graph-accumulation %t -- -config="{CheckOptions: {FunctionSummaries: '%t.json'}}" -- -I%S/Inputs/optimiser-wrapper
// RUN: %check_torch_tidy --check-suffix=OPAQUE %s torch-graph-accumulation %t.opaque -- -quiet -- -I%S/Inputs/optimiser-wrapper
// RUN: %clang_tidy_plugin -checks='-*,torch-graph-accumulation' -config="{CheckOptions: {FunctionSummaries: '%t.json'}}" %s -- %mock_torch -I%S/Inputs/optimiser-wrapper | FileCheck %s --check-prefix=PLUGIN

// JSON: "differentiates": [{{$}}
// JSON-NEXT: 0
// JSON-NEXT: ],
// JSON-NEXT: "differentiates_in_view": [{{$}}
// JSON-NEXT: 0
// JSON-NEXT: ],
// JSON-NEXT: "function": "OptimiserWrapper::step(at::Tensor &)"
// PLUGIN-NOT: warning: 'value_loss'
// PLUGIN: consumed-by-wrapper.cpp:[[#@LINE+46]]:5: warning: 'logged' outlives the iteration
// PLUGIN-NOT: warning: 'value_loss'

#include "optimiser_wrapper.h"
#include <vector>

// The same wrapper's shape, with its body in this unit.
struct LocalOptimiser {
  torch::optim::SGD sgd;
  void step(torch::Tensor &loss) {
    sgd.zero_grad();
    loss.backward();
    sgd.step();
  }
};

void update(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs, OptimiserWrapper &opt,
            const torch::Tensor &target) {
  torch::Tensor value_loss = torch::zeros({});
  torch::Tensor policy_loss = torch::zeros({});
  for (size_t i = 0; i < xs.size(); ++i) {
    value_loss += (model(xs[i]) - target).pow(2).mean();
    // CHECK-MESSAGES-OPAQUE: :[[@LINE-1]]:5: warning: 'value_loss' outlives the iteration
    policy_loss += model(xs[i]).log_softmax(1).mean();
    // CHECK-MESSAGES-OPAQUE: :[[@LINE-1]]:5: warning: 'policy_loss' outlives the iteration
  }
  auto loss = value_loss * 0.25 + policy_loss;
  loss = loss.mean();
  opt.step(loss);
}

void update_local(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs, LocalOptimiser &opt,
                  const torch::Tensor &target) {
  torch::Tensor value_loss = torch::zeros({});
  for (size_t i = 0; i < xs.size(); ++i)
    value_loss += (model(xs[i]) - target).pow(2).mean();
  auto loss = value_loss * 0.25;
  opt.step(loss);
}

// Only logged: nothing differentiates the sum, whose graph grows with the
// unroll.
void log_only(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs, OptimiserWrapper &opt,
              const torch::Tensor &target) {
  torch::Tensor logged = torch::zeros({});
  for (size_t i = 0; i < xs.size(); ++i)
    logged += (model(xs[i]) - target).pow(2).mean();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'logged' outlives the iteration
  // CHECK-MESSAGES-OPAQUE: :[[@LINE-2]]:5: warning: 'logged' outlives the iteration
  // CHECK-FIXES: logged += (model(xs[i]) - target).pow(2).mean().detach();
  // CHECK-FIXES-OPAQUE: logged += (model(xs[i]) - target).pow(2).mean().detach();
  auto total = logged * 2;
  opt.record(total);
}
