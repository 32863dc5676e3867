// A policy-value network whose methods are defined in policy_net.cpp: a unit
// that includes only this header sees no body.
#include <torch/torch.h>
#include <utility>
#include <vector>

struct PolicyNetImpl : torch::nn::Module {
  torch::nn::Linear body{9, 10};
  std::pair<torch::Tensor, torch::Tensor> forward(const torch::Tensor &x);
  // Holds a NoGradGuard around its forward: for search and play.
  std::pair<torch::Tensor, torch::Tensor> predict(const torch::Tensor &x);
  // Runs its forward with grad mode on.
  std::pair<torch::Tensor, torch::Tensor> evaluate(const torch::Tensor &x);
  // Appends the argmax of each step's policy to the ids it is given.
  torch::Tensor extend(torch::Tensor ids, int steps);
};
TORCH_MODULE(PolicyNet);

// Reads the numbers of a network's output into pixels.
void to_image(const torch::Tensor &output, std::vector<float> &pixels);
// Backpropagates a loss computed from a network's output, and steps.
void learn_from(const torch::Tensor &output, torch::optim::SGD &optimizer);
