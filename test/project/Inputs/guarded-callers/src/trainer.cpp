#include "sampler.h"

#include <vector>

// Called only by validate, which turns grad mode off first.
static void log_samples(Sampler &sampler, const std::vector<torch::Tensor> &xs) {
  for (const torch::Tensor &x : xs)
    sampler.greedy(x);
}

void validate(Sampler &sampler, const std::vector<torch::Tensor> &xs) {
  torch::NoGradGuard no_grad;
  log_samples(sampler, xs);
  sampler.score(xs.front());
}

double report(Sampler &sampler, const torch::Tensor &x) {
  return sampler.score(x);
}

int64_t decode_all(Sampler &sampler, const std::vector<torch::Tensor> &xs) {
  int64_t tokens = 0;
  for (const torch::Tensor &x : xs)
    tokens += sampler.decode(x);
  return tokens;
}
