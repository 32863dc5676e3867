// A sampler whose methods are defined in src/sampler.cpp and called from
// src/trainer.cpp: a unit that includes only this header sees no body.
#include <torch/torch.h>

struct Sampler {
  torch::nn::Linear net{nullptr};
  // Greedy decoding of a few steps; trainer.cpp calls it only with grad
  // mode off.
  int64_t greedy(torch::Tensor x);
  // The mean score of a few batches; trainer.cpp calls it with grad mode off
  // once, and once with it on.
  double score(const torch::Tensor &x);
};
