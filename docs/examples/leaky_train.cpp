// A small LibTorch training and evaluation program with the mistakes that
// make memory grow every step. `.ci/demo` runs torch-tidy on it.
#include <torch/torch.h>

#include <iostream>

struct NetImpl : torch::nn::Module {
  NetImpl() : fc1(register_module("fc1", torch::nn::Linear(16, 32))),
              fc2(register_module("fc2", torch::nn::Linear(32, 1))) {}
  torch::Tensor forward(const torch::Tensor &x) {
    return fc2(torch::relu(fc1(x)));
  }
  torch::nn::Linear fc1, fc2;
};
TORCH_MODULE(Net);

double evaluate(Net &model, const torch::Tensor &x, const torch::Tensor &y) {
  model->eval();
  torch::NoGradGuard();  // meant to switch autograd off for evaluation
  auto prediction = model->forward(x);
  return torch::mse_loss(prediction, y).item<double>();
}

int main() {
  torch::manual_seed(0);
  Net model;
  torch::optim::SGD optimizer(model->parameters(), 0.01);
  auto x = torch::randn({64, 16});
  auto y = torch::randn({64, 1});

  for (int step = 0; step < 100; ++step) {
    model->train();
    optimizer.zero_grad();
    auto loss = torch::mse_loss(model->forward(x), y);
    loss.backward({}, /*retain_graph=*/true);  // "fixes" a backward error
    optimizer.step();
    if (step % 10 == 0)
      std::cout << "step " << step << " eval loss " << evaluate(model, x, y)
                << "\n";
  }
}
