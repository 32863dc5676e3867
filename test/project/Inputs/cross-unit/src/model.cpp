#include "model.h"
#include "detail.h"

torch::Tensor Trainer::batch_loss(const torch::Tensor &x) {
  return squared_error(net(x)).mean();
}

torch::Tensor Trainer::summary_of(const torch::Tensor &output) {
  torch::NoGradGuard no_grad;
  return output.mean();
}
