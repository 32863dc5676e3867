// The flagged loop runs twice: too few samples to measure.
#include <torch/torch.h>

int main() {
  torch::nn::Linear model(4, 1);
  torch::Tensor x = torch::ones({2, 4});
  torch::Tensor total = torch::zeros({});
  for (int step = 0; step < 2; ++step)
    total = total + model(x).sum();
  return total.item<double>() > 1e9;
}
