// RUN: %check_torch_tidy %s torch-graph-accumulation %t

// A sum over a model's chain of modules held through shared pointers (the
// flows of a normalizing flow) has one term per module, bounded by the
// model, not by time: where the result goes is judged where it goes, even
// when the caller only reads numbers from it. Over the steps of a loop, the
// same sum grows.

#include <iostream>
#include <memory>
#include <torch/torch.h>
#include <tuple>
#include <vector>

struct FlowImpl : torch::nn::Module {
  torch::nn::Linear scale{4, 4};
  std::tuple<torch::Tensor, torch::Tensor> forward(torch::Tensor z) {
    torch::Tensor s = scale(z);
    return {z * torch::exp(s), s.sum(1)};
  }
};

struct Chain {
  std::vector<std::shared_ptr<FlowImpl>> flows_;

  std::tuple<torch::Tensor, torch::Tensor> sample(torch::Tensor z) {
    torch::Tensor log_prob = torch::zeros({z.size(0)});
    for (auto &flow : flows_) {
      auto [x, log_det] = flow->forward(z);
      log_prob -= log_det, z = x;
    }
    return {z, log_prob};
  }
};

float mean_log_prob(Chain &chain, int steps) {
  float total = 0;
  for (int i = 0; i < steps; ++i) {
    auto [z, log_prob] = chain.sample(torch::randn({8, 4}));
    total += log_prob.mean().item<float>();
  }
  return total / steps;
}

torch::Tensor drift(std::shared_ptr<FlowImpl> flow, torch::Tensor z, int steps) {
  torch::Tensor log_prob = torch::zeros({z.size(0)});
  for (int i = 0; i < steps; ++i) {
    auto [x, log_det] = flow->forward(torch::randn({8, 4}));
    log_prob -= log_det;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'log_prob' outlives the iteration and takes on the autograd history of 'log_det' every time
    // CHECK-FIXES: log_prob -= log_det.detach();
  }
  std::cout << log_prob.sum().item<float>();
  return z;
}
