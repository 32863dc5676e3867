#include "rollout.h"

float update(torch::nn::Linear &policy, torch::optim::Adam &optimizer,
             Rollout &rollout, const torch::Tensor &states) {
  torch::Tensor old_log_probs = torch::stack(rollout.log_probs).detach();
  torch::Tensor value_loss = torch::stack(rollout.values).pow(2).mean();
  optimizer.zero_grad();
  value_loss.backward();
  optimizer.step();
  float total = value_loss.item<float>();
  for (int epoch = 0; epoch < 4; ++epoch) {
    torch::Tensor log_probs = torch::log_softmax(policy->forward(states), 1);
    torch::Tensor loss = -torch::exp(log_probs - old_log_probs).mean();
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
    total += loss.item<float>();
  }
  rollout.log_probs.clear();
  rollout.values.clear();
  rollout.rewards.clear();
  return total;
}
