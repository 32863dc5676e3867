// A training loop that runs but learns the wrong thing: gradients never
// zeroed, a model left in evaluation mode, an accumulation window whose loss
// is not divided by its length. None of these grows memory, so verify has
// nothing to measure.
#include <torch/torch.h>

#include <iostream>

int main() {
  torch::nn::Sequential model(torch::nn::Linear(8, 16), torch::nn::Dropout(0.5),
                              torch::nn::Linear(16, 1));
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.01));
  torch::Tensor x = torch::randn({32, 8}), y = torch::randn({32, 1});
  for (int epoch = 0; epoch < 3; ++epoch) {
    for (int i = 0; i < 10; ++i) {
      auto loss = torch::mse_loss(model->forward(x), y);
      loss.backward();
      optimizer.step();
    }
    model->eval();
    torch::NoGradGuard no_grad;
    std::cout << torch::mse_loss(model->forward(x), y).item<double>() << "\n";
  }
  model->train();
  for (int i = 0; i < 12; ++i) {
    torch::mse_loss(model->forward(x), y).backward();
    if ((i + 1) % 4 == 0) {
      optimizer.step();
      optimizer.zero_grad();
    }
  }
  return 0;
}
