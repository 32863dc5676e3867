#include <torch/torch.h>
#include <vector>

double evaluate(torch::nn::Linear &model, const torch::Tensor &x) {
  model->eval();
  return model(x).sum().item<double>();
}

void train(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs) {
  torch::Tensor total = torch::zeros({});
  for (const auto &x : xs) {
    auto loss = model(x).sum();
    loss.backward();
    total += loss;
  }
}
