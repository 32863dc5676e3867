// The model and the helpers that run it, defined in src/model.cpp: a unit
// that includes only this header sees no body.
#include <torch/torch.h>

struct Trainer {
  torch::nn::Linear net{nullptr};
  // The loss of one batch: a forward pass of the trainer's own model.
  torch::Tensor batch_loss(const torch::Tensor &x);
  // A summary of the model's output for logging, computed under a guard.
  torch::Tensor summary_of(const torch::Tensor &output);
};
