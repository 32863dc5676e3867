// torch-eval-without-grad-guard: validation after every epoch records a
// graph for each forward, then drops it.
#include "common.h"

double validate(Net &model, const torch::Tensor &x, const torch::Tensor &y) {
  model->eval();
  torch::Tensor prediction = model->forward(x);
  return torch::mse_loss(prediction, y).item<double>();
}

int main() {
  torch::manual_seed(0);
  torch::Device device = pickDevice();
  Net model;
  model->to(device);
  torch::Tensor x = torch::randn({64, 32}).to(device), y = torch::randn({64, 1}).to(device);
  double total = 0;
  for (int epoch = 0; epoch < 1000; ++epoch) {
    model->train();
    total += validate(model, x, y);
  }
  return total > 0 ? 0 : 1;
}
