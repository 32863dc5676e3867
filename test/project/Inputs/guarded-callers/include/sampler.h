// A sampler whose methods are defined in src/sampler.cpp and called from
// src/trainer.cpp: a unit that includes only this header sees no body.
#include <torch/torch.h>

#include <vector>

struct Sampler {
  torch::nn::Linear net{nullptr};
  // Greedy decoding of a few steps; trainer.cpp calls it only with grad
  // mode off. Its definition adds a top-level const to the parameter,
  // which is no part of its type.
  int64_t greedy(torch::Tensor x);
  // The mean score of a few batches; trainer.cpp calls it with grad mode off
  // once, and once with it on.
  double score(const torch::Tensor &x);
  // Decodes one input; called only from trainer.cpp's decode_all, whose one
  // caller, in serve.cpp, turns grad mode off: a guard two units out.
  int64_t decode(const torch::Tensor &x);
};

// Defined in trainer.cpp.
int64_t decode_all(Sampler &sampler, const std::vector<torch::Tensor> &xs);
