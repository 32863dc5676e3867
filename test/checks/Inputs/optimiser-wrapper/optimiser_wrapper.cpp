#include "optimiser_wrapper.h"

OptimiserWrapper::OptimiserWrapper(std::vector<torch::Tensor> params)
    : optimiser_(params, torch::optim::AdamOptions(1e-3)) {}

void OptimiserWrapper::step(torch::Tensor &loss) {
  optimiser_.zero_grad();
  loss.backward();
  optimiser_.step();
}

void OptimiserWrapper::record(const torch::Tensor &value) {
  std::printf("%f\n", value.item<double>());
}
