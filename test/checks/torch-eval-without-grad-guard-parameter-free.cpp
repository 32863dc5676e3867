// RUN: %check_torch_tidy %s torch-eval-without-grad-guard %t

// LibTorch's modules that hold no parameter (padding, pooling, activations,
// dropout, flatten: nothing but options among their members) record a graph
// only where their input carries one. Run on data, they record nothing;
// run on a model's output, the model's forward is the one judged.

#include <torch/torch.h>
#include <vector>

double tiles_sum(torch::nn::Linear &model, const std::vector<torch::Tensor> &tiles) {
  torch::nn::ReLU relu;
  torch::nn::Dropout drop(0.5);
  torch::nn::Flatten flatten;
  model->eval();
  // CHECK-FIXES: model->eval();
  // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
  double total = 0;
  for (const auto &tile : tiles) {
    auto clipped = relu(tile);
    auto kept = drop->forward(clipped);
    total += flatten(kept).sum().item<double>();
  }
  for (const auto &tile : tiles) {
    auto out = relu(model(tile));
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode
    total += out.sum().item<double>();
  }
  return total;
}

// A module of the user's, even one with no parameter of its own, is not
// LibTorch's: its forward is a forward pass.
struct Scale : torch::nn::Module {
  torch::Tensor forward(const torch::Tensor &x) { return x * 2; }
};

double scaled(Scale &scale, const std::vector<torch::Tensor> &tiles) {
  scale.eval();
  // CHECK-FIXES: scale.eval();
  // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
  double total = 0;
  for (const auto &tile : tiles)
    total += scale.forward(tile).sum().item<double>();
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: the model runs forward in evaluation code
  return total;
}
