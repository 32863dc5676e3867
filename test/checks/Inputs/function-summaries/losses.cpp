#include "losses.h"

std::tuple<torch::Tensor, torch::Tensor>
DetectionLossImpl::forward(const torch::Tensor &pred, const torch::Tensor &target) {
  auto parts = (pred - target).pow(2);
  return {parts.sum(), parts.detach()};
}

std::tuple<torch::Tensor, torch::Tensor> loss_and_log(const torch::Tensor &pred,
                                                      const torch::Tensor &target) {
  auto loss = (pred - target).pow(2).mean();
  return std::make_tuple(loss, loss.detach());
}

torch::Tensor guarded_penalty(const torch::Tensor &pred, const torch::Tensor &target) {
  torch::NoGradGuard no_grad;
  auto diff = (pred - target).abs();
  return diff.mean();
}

// Internal to this file: not summarised.
static torch::Tensor halved(const torch::Tensor &x) { return x / 2; }

torch::Tensor squared_error(const torch::Tensor &pred, const torch::Tensor &target) {
  return halved((pred - target).pow(2).mean());
}

torch::Tensor with_model(torch::nn::Linear &model, const torch::Tensor &x) {
  return model(x).sum();
}

VaeLosses vae_losses(const torch::Tensor &pred, const torch::Tensor &target) {
  VaeLosses out;
  auto recon = (pred - target).pow(2).mean();
  auto kl = pred.pow(2).mean();
  out.total = recon + kl;
  out.recon = recon.detach();
  out.kl = kl.detach();
  return out;
}

void StepState::step(torch::nn::Linear &model, const torch::Tensor &x) {
  last_ = model(x).sum();
  last_.backward();
}

void StepState::step_detached(torch::nn::Linear &model, const torch::Tensor &x) {
  clean_ = model(x).sum().detach();
}

std::tuple<torch::Tensor, torch::Tensor> sample_and_value(const torch::Tensor &pred) {
  auto value = pred.sum();
  torch::NoGradGuard no_grad;
  auto sample = pred.softmax(0).multinomial(1);
  // The guard records nothing new; value keeps the graph it was built with.
  return std::make_tuple(sample, value);
}
