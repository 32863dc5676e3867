// RUN: %check_torch_tidy %s torch-eval-without-grad-guard %t

// A forward's result written in place into a view of another tensor
// (`proj.view({-1}).index_add_(0, index, dist.view({-1}))`, a distributional
// critic's projection) is written into that tensor: returning the tensor
// returns the forward's graph, which the caller that differentiates it
// needs. The method is the model's forward by another name, judged where
// it is called.

#include <torch/torch.h>

struct DistributionalQ : torch::nn::Module {
  torch::nn::Linear fc{nullptr};
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::Tensor projection(torch::Tensor x, torch::Tensor index) {
    auto dist = torch::softmax(forward(x), 1);
    auto proj = torch::zeros_like(dist);
    proj.view({-1}).index_add_(0, index, dist.view({-1}));
    return proj;
  }
};

void train(DistributionalQ &critic, torch::optim::Optimizer &opt,
           torch::Tensor x, torch::Tensor index) {
  for (int step = 0; step < 100; ++step) {
    auto target = critic.projection(x, index);
    auto loss = (target - x).pow(2).mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
}

float evaluate(DistributionalQ &critic, torch::Tensor x, torch::Tensor index) {
  critic.eval();
  // CHECK-FIXES: critic.eval();
  // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
  float total = 0;
  for (int step = 0; step < 10; ++step) {
    auto target = critic.projection(x, index);
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode
    total += target.sum().item<float>();
  }
  return total;
}
