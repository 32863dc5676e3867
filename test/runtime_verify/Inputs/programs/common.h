// Shared by the verify test programs: a small model, fixed-shape data, and
// the device (CUDA when there is one, the CPU otherwise).
#pragma once
#include <torch/torch.h>

#include <cstdlib>
#include <string>

struct NetImpl : torch::nn::Module {
  NetImpl()
      : fc1(register_module("fc1", torch::nn::Linear(32, 64))),
        fc2(register_module("fc2", torch::nn::Linear(64, 1))) {}
  torch::Tensor forward(const torch::Tensor &x) { return fc2(torch::relu(fc1(x))); }
  torch::nn::Linear fc1, fc2;
};
TORCH_MODULE(Net);

// TORCH_TIDY_TEST_DEVICE=cpu keeps a run on the CPU even where a GPU exists.
inline torch::Device pickDevice() {
  const char *forced = std::getenv("TORCH_TIDY_TEST_DEVICE");
  if (forced && std::string(forced) == "cpu")
    return torch::Device(torch::kCPU);
  return torch::cuda::is_available() ? torch::Device(torch::kCUDA) : torch::Device(torch::kCPU);
}
