#pragma once
#include <torch/torch.h>

// The state of an integrator, stepped by its own methods (atoms.cpp in the
// test) and fed forces by the driver (driver.cpp).
class Atoms {
public:
  void set_forces(const torch::Tensor &forces);
  void step(double dt);

private:
  torch::Tensor positions_ = torch::zeros({8, 3});
  torch::Tensor velocities_ = torch::zeros({8, 3});
  torch::Tensor forces_ = torch::zeros({8, 3});
};
