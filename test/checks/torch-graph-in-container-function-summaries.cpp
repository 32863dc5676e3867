// A method that stores its parameter in a member, called with tensors that
// carry history only from another unit (callers.cpp): from that unit's
// function summaries (FunctionSummaries) the store is reported, with a
// note that names the call. Without them the parameter is of unknown
// origin (the OPAQUE run).
// RUN: %torch_tidy -checks='-*,torch-*' --no-cache --export-summaries=%t.json %S/Inputs/function-summaries/callers.cpp %S/Inputs/function-summaries/losses.cpp -- %mock_torch -I%S/Inputs/function-summaries > /dev/null
// RUN: %check_torch_tidy %s torch-graph-in-container %t -- -config="{CheckOptions: {FunctionSummaries: '%t.json'}}" -- -I%S/Inputs/function-summaries
// RUN: %check_torch_tidy --check-suffix=OPAQUE %s torch-graph-in-container %t.opaque -- -quiet -- -I%S/Inputs/function-summaries
// RUN: %torch_tidy -checks='-*,torch-graph-in-container' --config="{CheckOptions: {FunctionSummaries: '%t.json'}}" %s -- %mock_torch -I%S/Inputs/function-summaries | FileCheck %s --check-prefix=NOTES
// RUN: %clang_tidy_plugin -checks='-*,torch-graph-in-container' --config="{CheckOptions: {FunctionSummaries: '%t.json'}}" %s -- %mock_torch -I%S/Inputs/function-summaries | FileCheck %s --check-prefix=NOTES

#include "metrics.h"

void RunningMetrics::add_loss(const torch::Tensor &loss) {
  losses_.push_back(loss);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'losses_' outlives the call and each time a tensor that carries autograd history is stored in it; backward() has freed the saved activations, but each step's autograd graph nodes stay reachable and host memory grows with every step [torch-graph-in-container]
  // CHECK-FIXES: losses_.push_back(loss.detach());
}
// NOTES: function-summaries.cpp:15:3: warning: 'losses_' outlives the call
// NOTES: metrics.h:15:30: note: 'losses_' outlives each call of the function
// NOTES: function-summaries.cpp:14:52: note: 'loss' is handed a tensor that carries autograd history by a call in another file, at {{.*}}callers.cpp:9:5

void RunningMetrics::add_output(const torch::Tensor &output) {
  outputs_.push_back(output);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'outputs_' outlives the call and each time a tensor that carries autograd history is stored in it, so each step's graph and saved activations stay reachable and memory grows with every step [torch-graph-in-container]
  // CHECK-FIXES: outputs_.push_back(output.detach());
}
// NOTES: function-summaries.cpp:24:3: warning: 'outputs_' outlives the call
// NOTES: function-summaries.cpp:23:54: note: 'output' is handed a tensor that carries autograd history by a call in another file, at {{.*}}callers.cpp:20:5

// Every call passes a detached value, or one computed under a guard.
void RunningMetrics::add_number(const torch::Tensor &value) { numbers_.push_back(value); }
void RunningMetrics::add_clean(const torch::Tensor &loss) { clean_.push_back(loss); }

// A member that a method of another file (StepState::step, losses.cpp) leaves
// holding the step's loss: kept here, it keeps that graph.
#include "losses.h"
void StepState::read() {
  static std::vector<torch::Tensor> kept;
  kept.push_back(last_);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'kept' outlives the call and each time a tensor that carries autograd history is stored in it, so each step's graph and saved activations stay reachable and memory grows with every step [torch-graph-in-container]
  // CHECK-FIXES: kept.push_back(last_.detach());
  kept.push_back(clean_);
}
// NOTES: function-summaries.cpp:[[@LINE-5]]:3: warning: 'kept' outlives the call
// NOTES: losses.h:{{[0-9]+}}:17: note: 'last_' is left holding a tensor that carries autograd history by a method in another file, at {{.*}}losses.cpp:{{[0-9]+}}:3

// What a loop gathers and returns, read by calls in another file: kept for
// nothing when they read only numbers from it (the summaries say so), the
// caller's graph when they train on it. Without the summaries no call is in
// view, and the callers elsewhere decide.
std::vector<torch::Tensor> Rollout::values(torch::nn::Linear &critic,
                                           const std::vector<torch::Tensor> &states) {
  std::vector<torch::Tensor> values;
  for (const auto &s : states)
    values.push_back(critic(s));
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'values' outlives the iteration and each time a tensor that carries autograd history is stored in it, so each step's graph and saved activations stay reachable and memory grows with every step [torch-graph-in-container]
  // CHECK-FIXES: values.push_back(critic(s).detach());
  return values;
}
// NOTES: function-summaries.cpp:[[@LINE-5]]:5: warning: 'values' outlives the iteration
// NOTES: function-summaries.cpp:[[@LINE-6]]:5: note: 'values' returns what the loop gathers, and no caller differentiates it (its calls are in other units, the first at {{.*}}callers.cpp:{{[0-9]+}}:{{[0-9]+}}): every stored graph is kept for nothing until the result is dropped
std::vector<torch::Tensor> Rollout::log_probs(torch::nn::Linear &actor,
                                              const std::vector<torch::Tensor> &states) {
  std::vector<torch::Tensor> out;
  for (const auto &s : states)
    out.push_back(torch::log_softmax(actor(s), -1));
  return out;
}
