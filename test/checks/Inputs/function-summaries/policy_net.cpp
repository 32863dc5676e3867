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

torch::Tensor PolicyNetImpl::extend(torch::Tensor ids, int steps) {
  for (int i = 0; i < steps; ++i) {
    auto out = forward(ids.to(torch::kFloat));
    ids = torch::cat({ids, out.first.argmax(1, true)}, 1);
  }
  return ids;
}

void to_image(const torch::Tensor &output, std::vector<float> &pixels) {
  auto values = output.flatten();
  for (int64_t i = 0; i < values.numel(); ++i)
    pixels.push_back(values[i].item<float>());
}

void learn_from(const torch::Tensor &output, torch::optim::SGD &optimizer) {
  optimizer.zero_grad();
  output.pow(2).mean().backward();
  optimizer.step();
}
