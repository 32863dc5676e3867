#include "network.h"

std::pair<torch::Tensor, torch::Tensor> PolicyValueNet::forward(torch::Tensor x) {
  return {policy(x), value(x)};
}

std::pair<torch::Tensor, torch::Tensor> NeuralNetwork::predict(torch::Tensor &input) {
  return net->forward(input);
}

void NeuralNetwork::train_batches(const std::vector<torch::Tensor> &batches,
                                  torch::optim::Optimizer &optimizer) {
  for (auto batch : batches) {
    auto outputs = predict(batch);
    auto loss = outputs.first.sum() + outputs.second.sum();
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
}
