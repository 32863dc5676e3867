// Half-written code: one function does not compile, the next one leaks.
#include <torch/torch.h>
#include <vector>

void unfinished(torch::nn::Linear &model, const torch::Tensor &x) {
  auto out = model(x) + ;
  out.no_such_method();
}

void train(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs) {
  torch::Tensor total = torch::zeros({});
  for (const auto &x : xs)
    total += model(x).sum();
}
