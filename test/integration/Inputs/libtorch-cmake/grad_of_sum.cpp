// Runs a tiny forward and backward pass on the CPU and prints the version of
// the LibTorch it was compiled against and the gradient it computed.
#include <ATen/ATen.h>
#include <torch/version.h>

#include <iostream>

int main() {
  at::Tensor w = at::ones({3}).set_requires_grad(true);
  at::Tensor loss = (w * 2).sum();
  loss.backward();
  std::cout << "LibTorch " << TORCH_VERSION << ", gradient sum "
            << w.grad().sum().item<double>() << "\n";
  return 0;
}
