// A loop that keeps its graph: `total = total + loss` with no backward.
// Moves its tensors to the GPU when one is available (unless
// TORCH_TIDY_TEST_DEVICE=cpu).
#include <torch/torch.h>
#include "torch_tidy/probe.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

int main() {
  const char *forced = std::getenv("TORCH_TIDY_TEST_DEVICE");
  bool cpu_only = forced && std::strcmp(forced, "cpu") == 0;
  torch::Device device = torch::cuda::is_available() && !cpu_only ? torch::kCUDA : torch::kCPU;
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
