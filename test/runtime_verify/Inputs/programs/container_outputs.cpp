// torch-graph-in-container: every batch's predictions kept in a vector.
#include "common.h"

#include <vector>

int main() {
  torch::manual_seed(0);
  torch::Device device = pickDevice();
  Net model;
  model->to(device);
  torch::Tensor x = torch::randn({64, 32}).to(device);
  std::vector<torch::Tensor> predictions;
  for (int batch = 0; batch < 1000; ++batch)
    predictions.push_back(model->forward(x));
  return predictions.empty() ? 1 : 0;
}
