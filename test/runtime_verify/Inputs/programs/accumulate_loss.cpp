// torch-graph-accumulation: an epoch loss summed as a tensor.
#include "common.h"

int main() {
  torch::manual_seed(0);
  torch::Device device = pickDevice();
  Net model;
  model->to(device);
  torch::optim::SGD optimizer(model->parameters(), 0.01);
  torch::Tensor x = torch::randn({64, 32}).to(device), y = torch::randn({64, 1}).to(device);
  torch::Tensor total = torch::zeros({}, torch::TensorOptions().device(device));
  for (int step = 0; step < 1000; ++step) {
    optimizer.zero_grad();
    torch::Tensor loss = torch::mse_loss(model->forward(x), y);
    loss.backward();
    optimizer.step();
    total = total + loss;
  }
  return total.item<double>() > 0 ? 0 : 1;
}
