#pragma once
#include <torch/torch.h>

#include <memory>
#include <utility>
#include <vector>

struct PolicyValueNet : torch::nn::Module {
  torch::nn::Linear policy{nullptr}, value{nullptr};
  std::pair<torch::Tensor, torch::Tensor> forward(torch::Tensor x);
};

// Holds the network; no module itself.
class NeuralNetwork {
public:
  std::pair<torch::Tensor, torch::Tensor> predict(torch::Tensor &input);
  void train_batches(const std::vector<torch::Tensor> &batches,
                     torch::optim::Optimizer &optimizer);

private:
  std::shared_ptr<PolicyValueNet> net;
};
