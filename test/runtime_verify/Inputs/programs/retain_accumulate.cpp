// torch-retain-graph-in-loop combined with torch-graph-accumulation: the
// running total links every step's graph, and retain_graph=true keeps each
// graph's saved activations alive.
#include "common.h"

int main() {
  torch::manual_seed(0);
  torch::Device device = pickDevice();
  Net model;
  model->to(device);
  torch::optim::SGD optimizer(model->parameters(), 0.01);
  torch::Tensor x = torch::randn({64, 32}).to(device), y = torch::randn({64, 1}).to(device);
  torch::Tensor running = torch::zeros({}, torch::TensorOptions().device(device));
  for (int step = 0; step < 1000; ++step) {
    optimizer.zero_grad();
    torch::Tensor loss = torch::mse_loss(model->forward(x), y);
    running = running + loss;
    loss.backward({}, /*retain_graph=*/true);
    optimizer.step();
  }
  return running.item<double>() > 0 ? 0 : 1;
}
