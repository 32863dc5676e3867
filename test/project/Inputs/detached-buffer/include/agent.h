// An agent whose replay buffer is defined in buffer.cpp: `add` keeps
// copies cut from the graph, and `update` trains on what `sample` returns.
#pragma once
#include <torch/torch.h>
#include <vector>

struct ReplayBuffer {
  std::vector<torch::Tensor> states, actions;
  void add(const torch::Tensor &state, const torch::Tensor &action);
  torch::Tensor sample_states() const { return torch::stack(states); }
};

// The same, keeping what it is handed as it is.
struct KeepingBuffer {
  std::vector<torch::Tensor> actions;
  void add(const torch::Tensor &action);
  torch::Tensor sample() const { return torch::stack(actions); }
};
