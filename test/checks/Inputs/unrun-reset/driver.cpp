#include "recurrent_policy.h"
#include <vector>

// Trains the policy on whole episodes: each episode's outputs are summed
// and backpropagated once.
void train_episodes(RecurrentPolicy &policy, torch::optim::Optimizer &optimizer,
                    const std::vector<std::vector<torch::Tensor>> &episodes) {
  for (const auto &episode : episodes) {
    std::vector<torch::Tensor> outputs;
    for (const auto &obs : episode)
      outputs.push_back(policy->forward(obs, true));
    optimizer.zero_grad();
    torch::stack(outputs).sum().backward();
    optimizer.step();
#ifdef CALL_RESET
    policy->reset();
#endif
  }
}

#ifndef LIBRARY
int main() {
  RecurrentPolicy policy;
  std::vector<std::vector<torch::Tensor>> episodes(3, std::vector<torch::Tensor>(100, torch::rand({1, 1, 4})));
  torch::optim::SGD optimizer(policy->parameters(), 0.01);
  train_episodes(policy, optimizer, episodes);
  return 0;
}
#endif
