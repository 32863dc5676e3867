// A loop that keeps its graph: `total = total + loss` with no backward.
// Moves its tensors to the GPU when one is available.
#include <torch/torch.h>
#include "torch_tidy/probe.h"

#include <cstdio>

int main() {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  std::printf("device: %s\n", device.str().c_str());
  torch::nn::Linear fc(16, 4);
  fc->to(device);
  torch::Tensor x = torch::randn({32, 16}).to(device);
  torch::Tensor total = torch::zeros({}, torch::TensorOptions().device(device));
  for (int step = 0; step < 5; ++step) {
    torch::Tensor loss = fc(x).pow(2).mean();
    total = total + loss;
    TORCH_TIDY_PROBE("total", total);
  }
  return 0;
}
