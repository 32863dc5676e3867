#pragma once
#include <torch/torch.h>

// A training library's optimiser wrapper: step() runs the backward pass of
// the loss it is handed, clips and steps. Its body is in optimiser_wrapper.cpp.
class OptimiserWrapper {
public:
  explicit OptimiserWrapper(std::vector<torch::Tensor> params);
  void step(torch::Tensor &loss);
  // Logs a value; differentiates nothing.
  void record(const torch::Tensor &value);

private:
  torch::optim::Adam optimiser_;
};
