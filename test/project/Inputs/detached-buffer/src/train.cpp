#include "agent.h"

void train(torch::nn::Linear &policy, torch::optim::Adam &opt, int steps) {
  ReplayBuffer buffer;
  for (int t = 0; t < steps; ++t) {
    torch::Tensor state = torch::rand({1, 4});
    torch::Tensor action;
    {
      action = policy(state);
    }
    buffer.add(state, action);
    auto loss = policy(buffer.sample_states()).pow(2).mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
}

void train_keeping(torch::nn::Linear &policy, torch::optim::Adam &opt,
                   int steps) {
  KeepingBuffer buffer;
  for (int t = 0; t < steps; ++t) {
    torch::Tensor action;
    {
      action = policy(torch::rand({1, 4}));
    }
    buffer.add(action);
    auto loss = buffer.sample().pow(2).mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
}
