// A method of the user's model defined in another unit (policy_net.cpp) is
// taken for a forward pass while nothing is known of it. The project's
// function summaries are evidence: a method whose body runs the model under
// its own guard returns no history whatever it is handed, so a search that
// calls it for every leaf records nothing (not flagged with the summaries;
// flagged, with a note on the assumption, without them, the OPAQUE run). A
// method whose body records a graph stays a forward pass either way; one
// that returns history only from what it is handed is none when handed
// nothing that carries history.
// The summaries also say which parameters a function of another unit may
// differentiate: an output handed only to one that reads its numbers is
// dropped (flagged with them; without them that function may differentiate
// it), one handed to a function that backpropagates it is not.
// RUN: %torch_tidy -checks='-*,torch-*' --no-cache --export-summaries=%t.json %S/Inputs/function-summaries/policy_net.cpp -- %mock_torch -I%S/Inputs/function-summaries > /dev/null
// RUN: %check_torch_tidy %s torch-eval-without-grad-guard %t -- -config="{CheckOptions: {FunctionSummaries: '%t.json'}}" -- -I%S/Inputs/function-summaries
// RUN: %check_torch_tidy --check-suffix=OPAQUE %s torch-eval-without-grad-guard %t.opaque -- -quiet -- -I%S/Inputs/function-summaries
// RUN: %torch_tidy -checks='-*,torch-eval-without-grad-guard' %s -- %mock_torch -I%S/Inputs/function-summaries | FileCheck %s --check-prefix=NOTES
// RUN: %clang_tidy_plugin -checks='-*,torch-eval-without-grad-guard' %s -- %mock_torch -I%S/Inputs/function-summaries | FileCheck %s --check-prefix=NOTES

#include "policy_net.h"
#include <vector>

float leaf_value(PolicyNet &net, const torch::Tensor &board) {
  auto [policy, value] = net->predict(board);
  // CHECK-MESSAGES-OPAQUE: :[[@LINE-1]]:26: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode
  // CHECK-FIXES-OPAQUE: torch::NoGradGuard no_grad;
  return value.item<float>() + policy.max().item<float>();
}
// NOTES: function-summaries.cpp:[[#@LINE-5]]:26: warning: the model runs forward in evaluation code
// NOTES: function-summaries.cpp:[[#@LINE-6]]:26: note: this is a method of the model with no body in view, taken for its forward pass

float search(PolicyNet &net, const std::vector<torch::Tensor> &leaves) {
  float total = 0;
  for (const auto &leaf : leaves)
    total += leaf_value(net, leaf);
  return total;
}

float leaf_score(PolicyNet &net, const torch::Tensor &board) {
  auto [policy, value] = net->evaluate(board);
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode
  // CHECK-MESSAGES-OPAQUE: :[[@LINE-2]]:26: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode
  // CHECK-FIXES: torch::NoGradGuard no_grad;
  return value.item<float>() + policy.max().item<float>();
}

float score_all(PolicyNet &net, const std::vector<torch::Tensor> &leaves) {
  float total = 0;
  for (const auto &leaf : leaves)
    total += leaf_score(net, leaf);
  return total;
}

// A sampler defined in policy_net.cpp returns history only from the ids it
// is handed: handed random ids, it returns none, and its forward passes are
// judged in its own unit (flagged only without the summaries).
torch::Tensor sample_ids(PolicyNet &net) {
  net->eval();
  auto ids = net->extend(torch::randint(0, 9, {1, 9}), 4);
  // CHECK-MESSAGES-OPAQUE: :[[@LINE-1]]:14: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode
  // CHECK-FIXES-OPAQUE: torch::NoGradGuard no_grad;
  return ids;
}

void serve(torch::nn::Linear &model, const std::vector<torch::Tensor> &frames,
           std::vector<float> &pixels) {
  for (const auto &frame : frames) {
    auto output = model(frame);
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode
    // CHECK-FIXES: torch::NoGradGuard no_grad;
    to_image(output, pixels);
  }
}

void learn(torch::nn::Linear &model, const std::vector<torch::Tensor> &frames,
           torch::optim::SGD &optimizer) {
  for (const auto &frame : frames) {
    auto output = model(frame);
    learn_from(output, optimizer);
  }
}
