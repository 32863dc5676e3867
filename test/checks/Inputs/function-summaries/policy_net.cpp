#include "policy_net.h"

std::pair<torch::Tensor, torch::Tensor> PolicyNetImpl::forward(const torch::Tensor &x) {
  auto h = body(x);
  return {h.softmax(1), h.tanh()};
}

std::pair<torch::Tensor, torch::Tensor> PolicyNetImpl::predict(const torch::Tensor &x) {
  torch::NoGradGuard no_grad;
  return forward(x);
}

std::pair<torch::Tensor, torch::Tensor> PolicyNetImpl::evaluate(const torch::Tensor &x) {
  return forward(x);
}
