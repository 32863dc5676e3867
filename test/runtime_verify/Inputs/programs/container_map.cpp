// torch-graph-in-container: per-step losses kept in a map for a later
// report, while training goes on.
#include "common.h"

#include <map>

int main() {
  torch::manual_seed(0);
  torch::Device device = pickDevice();
  Net model;
  model->to(device);
  torch::optim::SGD optimizer(model->parameters(), 0.01);
  torch::Tensor x = torch::randn({64, 32}).to(device), y = torch::randn({64, 1}).to(device);
  std::map<int, torch::Tensor> loss_by_step;
  for (int step = 0; step < 1000; ++step) {
    optimizer.zero_grad();
    torch::Tensor loss = torch::mse_loss(model->forward(x), y);
    loss.backward();
    optimizer.step();
    loss_by_step[step] = loss;
  }
  return loss_by_step.size() > 0 ? 0 : 1;
}
