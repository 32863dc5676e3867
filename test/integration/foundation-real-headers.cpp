// Both front ends on a training program that includes the real
// <torch/torch.h> from libtorch-dev; the fixed file must compile against it.
// REQUIRES: libtorch
// REQUIRES: real-header-tests
// RUN: %check_torch_tidy_real %s 'torch-unnamed-grad-guard,torch-retain-graph-in-loop' %t

#include <torch/torch.h>

#include <vector>

struct NetImpl : torch::nn::Module {
  NetImpl() : fc(register_module("fc", torch::nn::Linear(8, 1))) {}
  torch::Tensor forward(const torch::Tensor &x) { return fc(x); }
  torch::nn::Linear fc;
};
TORCH_MODULE(Net);

double evaluate(Net &model, const torch::Tensor &x) {
  model->eval();
  torch::NoGradGuard();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'torch::NoGradGuard' is a temporary destroyed at the end of this statement, so it disables nothing: every following forward pass still records an autograd graph and keeps its activations in memory [torch-unnamed-grad-guard]
  // CHECK-FIXES: torch::NoGradGuard no_grad;
  c10::InferenceMode{};
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'c10::InferenceMode' is a temporary
  // CHECK-FIXES: c10::InferenceMode inference_mode;
  return model->forward(x).mean().item<double>();
}

void train(Net &model, torch::optim::SGD &optimizer,
           const std::vector<torch::Tensor> &batches, const torch::Tensor &y) {
  for (const auto &batch : batches) {
    optimizer.zero_grad();
    auto loss = torch::mse_loss(model->forward(batch), y);
    loss.backward({}, /*retain_graph=*/true);
    // CHECK-MESSAGES: :[[@LINE-1]]:40: warning: retain_graph=true in a loop keeps the autograd graph and its saved activations alive after backward(), so memory grows every iteration that anything (a running total, a hidden state) links the new graph to the old one [torch-retain-graph-in-loop]
    // CHECK-MESSAGES: :[[@LINE-5]]:3: note: this loop runs the backward pass every iteration
    // CHECK-FIXES: loss.backward({});
    optimizer.step();
  }
}

void train_steps(Net &model, const torch::Tensor &x, int steps) {
  for (int step = 0; step < steps; ++step) {
    auto loss = model->forward(x).pow(2).mean();
    torch::autograd::backward({loss}, {}, c10::optional<bool>(true), false);
    // CHECK-MESSAGES: :[[@LINE-1]]:43: warning: retain_graph=true in a loop
    // CHECK-MESSAGES: :[[@LINE-4]]:3: note: this loop runs
    // CHECK-FIXES: torch::autograd::backward({loss}, {}, false, false);
  }
}

// Spellings that LibTorch 1.13 and 2.x both accept: torch::InferenceMode
// (c10::InferenceMode reached through `using namespace`), c10::make_optional
// (std::make_optional in 2.x).
double predict(Net &model, const torch::Tensor &x) {
  torch::InferenceMode();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'torch::InferenceMode' is a temporary
  // CHECK-FIXES: torch::InferenceMode inference_mode;
  return model->forward(x).sum().item<double>();
}

void train_retaining(Net &model, const torch::Tensor &x) {
  for (int step = 0; step < 3; ++step) {
    auto loss = model->forward(x).sum();
    loss.backward(torch::Tensor(), c10::make_optional(true));
    // CHECK-MESSAGES: :[[@LINE-1]]:36: warning: retain_graph=true in a loop
    // CHECK-MESSAGES: :[[@LINE-4]]:3: note: this loop runs
    // CHECK-FIXES: loss.backward(torch::Tensor());
  }
}

// Not flagged: two losses from one forward share the retained graph.
void two_heads(Net &model, const torch::Tensor &x) {
  for (int step = 0; step < 10; ++step) {
    auto out = model->forward(x);
    auto l1 = out.pow(2).mean();
    auto l2 = out.abs().mean();
    l1.backward({}, true);
    l2.backward();
  }
}
