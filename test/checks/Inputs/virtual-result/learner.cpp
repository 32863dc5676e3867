#include "learner.h"

std::pair<torch::Tensor, torch::Tensor> PolicyNetImpl::forward(torch::Tensor input) {
  auto h = fc(input);
  return {h.softmax(1), h.sum(1)};
}

std::pair<torch::Tensor, torch::Tensor> Learner::predict(torch::Tensor state) {
  return net->forward((state - state.mean()) / state.std());
}
