#pragma once
#include <torch/torch.h>
#include <vector>

// What an acting step keeps for the update, in a structure the two share.
struct Rollout {
  std::vector<torch::Tensor> log_probs;
  std::vector<torch::Tensor> values;
  std::vector<float> rewards;
};

// Defined in update.cpp: reads the log-probabilities only detached (the old
// policy's, in the ratio) and backpropagates through the values.
float update(torch::nn::Linear &policy, torch::optim::Adam &optimizer,
             Rollout &rollout, const torch::Tensor &states);
