// A project's training file (mock LibTorch headers): verified in place.
#include <torch/torch.h>

int main() {
  torch::nn::Linear model(4, 1);
  torch::Tensor x = torch::zeros({2, 4});
  torch::Tensor total = torch::zeros({});
  for (int step = 0; step < 100; ++step) {
    auto loss = model(x).sum();
    total += loss;
  }
  return 0;
}
