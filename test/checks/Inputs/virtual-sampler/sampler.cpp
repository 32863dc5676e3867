#include "sampler.h"

torch::Tensor UniformDistribution::sample(int n) const { return torch::rand({n, 2}); }
torch::Tensor UniformDistribution::log_prob(torch::Tensor x) const {
  return torch::zeros_like(x);
}

Sampler::Sampler(std::shared_ptr<Distribution> prior) : prior(std::move(prior)) {}
torch::Tensor Sampler::log_prob(torch::Tensor x) const { return prior->log_prob(x).sum(-1); }
torch::Tensor Sampler::forward(int n) const {
  auto draws = prior->sample(n);
  auto log_j = -log_prob(draws);
  return torch::cat({draws, log_j.unsqueeze(-1)}, -1);
}
torch::Tensor PaddedSampler::forward(int n) const {
  auto draws = prior->sample(n).clamp(1e-4, 1 - 1e-4);
  return torch::cat({draws, -log_prob(draws).unsqueeze(-1)}, -1);
}
