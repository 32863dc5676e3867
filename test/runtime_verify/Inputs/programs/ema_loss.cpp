// torch-graph-accumulation: an exponential moving average of the loss, kept
// as a tensor for logging.
#include "common.h"

int main() {
  torch::manual_seed(0);
  torch::Device device = pickDevice();
  Net model;
  model->to(device);
  torch::optim::Adam optimizer(model->parameters(), 1e-3);
  torch::Tensor x = torch::randn({64, 32}).to(device), y = torch::randn({64, 1}).to(device);
  torch::Tensor smoothed = torch::zeros({}, torch::TensorOptions().device(device));
  for (int step = 0; step < 1000; ++step) {
    optimizer.zero_grad();
    torch::Tensor loss = torch::mse_loss(model->forward(x), y);
    loss.backward();
    optimizer.step();
    smoothed = 0.9 * smoothed + 0.1 * loss;
  }
  return smoothed.item<double>() > 0 ? 0 : 1;
}
