// A training and evaluation file with one finding of every torch-* check,
// each with a fix-it. <stddef.h> is clang's own builtin header: torch-clangd
// finds it wherever it is installed.
#include <stddef.h>
#include <torch/torch.h>
#include <vector>

double evaluate(torch::nn::Linear &model, const torch::Tensor &x) {
  auto out = model(x);
  return out.sum().item<double>();
}

void warm_up(torch::nn::Linear &model, const torch::Tensor &x) {
  torch::NoGradGuard();
  model(x);
}

void train(torch::nn::Linear &model, torch::optim::SGD &optimizer,
           const torch::Tensor &x, const torch::Tensor &y) {
  torch::Tensor total_loss = torch::zeros({});
  std::vector<torch::Tensor> outputs;
  for (size_t step = 0; step < 100; ++step) {
    optimizer.zero_grad();
    auto out = model(x);
    outputs.push_back(out);
    auto loss = torch::mse_loss(out, y);
    loss.backward({}, /*retain_graph=*/true);
    optimizer.step();
    total_loss += loss;
  }
}
