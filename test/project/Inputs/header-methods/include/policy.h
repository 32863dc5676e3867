// An actor-critic whose methods are all defined in their classes, so that
// every unit that includes this header has their bodies.
#include <torch/torch.h>

#include <memory>

struct Critic : torch::nn::Module {
  torch::nn::Linear net{nullptr};
  Critic() { net = register_module("net", torch::nn::Linear(4, 1)); }
  torch::Tensor forward(const torch::Tensor &obs) { return net(obs); }
};

struct ActorCritic : torch::nn::Module {
  std::shared_ptr<Critic> critic = std::make_shared<Critic>();
  torch::nn::Linear actor{nullptr};
  ActorCritic() {
    actor = register_module("actor", torch::nn::Linear(4, 2));
    register_module("critic", critic);
  }
  torch::Tensor forward(const torch::Tensor &obs) { return actor(obs); }
  // The critic's value: learner.cpp differentiates it in its update and
  // reads it under a guard in its rollout.
  const torch::Tensor evaluate(const torch::Tensor &obs) {
    return critic->forward(obs);
  }
};

// A score of the policy on a batch; only monitor.cpp calls it, with grad
// mode on, and reads the number.
inline double evaluate_return(ActorCritic &policy, const torch::Tensor &obs) {
  torch::Tensor value = policy.evaluate(obs);
  return value.mean().item<double>();
}

// The critic's mean value on held-out observations; learner.cpp calls it
// only under a NoGradGuard.
inline double validate(ActorCritic &policy, const torch::Tensor &obs) {
  torch::Tensor value = policy.critic->forward(obs);
  return value.mean().item<double>();
}
