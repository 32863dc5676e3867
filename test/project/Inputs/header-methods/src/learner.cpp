#include "policy.h"

#include <iostream>

void learn(ActorCritic &policy, torch::optim::Optimizer &opt,
           const torch::Tensor &obs, const torch::Tensor &ret) {
  for (int epoch = 0; epoch < 8; ++epoch) {
    torch::Tensor bootstrap;
    {
      torch::NoGradGuard no_grad;
      bootstrap = policy.evaluate(obs).detach();
    }
    torch::Tensor value = policy.evaluate(obs);
    torch::Tensor loss = (value - (ret + bootstrap)).pow(2).mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
    {
      torch::NoGradGuard no_grad;
      std::cout << validate(policy, obs) << "\n";
    }
  }
}
