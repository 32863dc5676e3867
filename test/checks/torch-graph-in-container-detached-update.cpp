// A rollout buffer kept in an object between updates and cleared after
// each: bounded on purpose when the update's backward pass walks what it
// holds (REINFORCE over the stored log-probabilities). When the update reads
// it only through a copy cut from the graph (`torch::cat(values).detach()`,
// as PPO's advantages and old log-probabilities are), no backward pass walks
// the stored graphs, and each is kept for nothing until the clear. Which
// value a read sees is what reaches it: a holder replaced by its detached
// copy before the loss (`targets = targets.detach();`) hands the loss none
// of what it held.
// RUN: %check_torch_tidy %s torch-graph-in-container %t

#include <torch/torch.h>
#include <vector>

struct Rollout {
  std::vector<torch::Tensor> states, values, log_probs;
};

struct PPOTrainer {
  torch::nn::Linear actor{4, 2};
  torch::nn::Linear critic{4, 1};
  torch::optim::Adam optimizer{actor->parameters(), torch::optim::AdamOptions(1e-3)};
  std::vector<Rollout *> rollouts;

  void clear(Rollout *r) {
    r->states.clear();
    r->values.clear();
    r->log_probs.clear();
  }

  void update(Rollout *r) {
    torch::Tensor old_values = torch::cat(r->values).detach();
    torch::Tensor old_log_probs = torch::cat(r->log_probs).detach();
    torch::Tensor states = torch::cat(r->states);
    for (int epoch = 0; epoch < 4; ++epoch) {
      auto log_probs = actor(states).log_softmax(1).select(1, 0);
      auto ratio = (log_probs - old_log_probs).exp();
      auto value_loss = (critic(states).squeeze(1) - old_values).pow(2).mean();
      auto loss = -ratio.mean() + value_loss;
      optimizer.zero_grad();
      loss.backward();
      optimizer.step();
    }
  }

  int64_t act(int id) {
    Rollout *r = rollouts[id];
    auto state = torch::rand({1, 4});
    r->states.push_back(state);
    auto log_prob = actor(state).log_softmax(1).select(1, 0);
    r->log_probs.push_back(log_prob);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'log_probs' outlives the call and each time a tensor that carries autograd history is stored in it, so each step's graph and saved activations stay reachable and memory grows with every step [torch-graph-in-container]
    // CHECK-MESSAGES: :[[@LINE-25]]:5: note: 'log_probs' is cleared here, which bounds the growth, but every graph stored before it stays alive until then
    // CHECK-FIXES: r->log_probs.push_back(log_prob.detach());
    r->values.push_back(critic(state).squeeze(1));
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'values' outlives the call and each time a tensor that carries autograd history is stored in it, so each step's graph and saved activations stay reachable and memory grows with every step [torch-graph-in-container]
    // CHECK-FIXES: r->values.push_back(critic(state).squeeze(1).detach());
    return log_prob.argmax().item<int64_t>();
  }

  void executed(int id, int step) {
    if (step % 128 == 0) {
      update(rollouts[id]);
      clear(rollouts[id]);
    }
  }
};

// The same buffer consumed by the update's backward pass (REINFORCE): the
// stored graphs are walked once, then cleared. Quiet.
struct Episode {
  std::vector<torch::Tensor> log_probs;
  std::vector<float> rewards;
};

struct Reinforce {
  torch::nn::Linear policy{4, 2};
  torch::optim::Adam optimizer{policy->parameters(), torch::optim::AdamOptions(1e-3)};
  Episode episode;

  int64_t act(const torch::Tensor &state) {
    auto log_prob = policy(state).log_softmax(1).select(1, 0);
    episode.log_probs.push_back(log_prob);
    return log_prob.argmax().item<int64_t>();
  }

  void finish() {
    auto returns = torch::tensor(episode.rewards);
    auto loss = -(torch::cat(episode.log_probs) * returns).sum();
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
    episode.log_probs.clear();
    episode.rewards.clear();
  }
};

// Returns computed over the rollout in the update itself, bootstrapped from
// the critic, and cut by replacing their holder before the loss is built:
// no epoch's backward pass walks the critic graphs stored, which stay alive
// until the update returns.
void update_with_bootstrap(torch::nn::Linear &critic, torch::nn::Linear &actor,
                           torch::optim::Optimizer &optimizer,
                           const std::vector<float> &rewards,
                           const std::vector<torch::Tensor> &states) {
  torch::Tensor running = torch::zeros({1});
  std::vector<torch::Tensor> returns;
  for (size_t i = 0; i < rewards.size(); ++i) {
    if (i % 100 == 99)
      running = critic(states[i]).squeeze(1);
    running = rewards[i] + 0.99 * running;
    returns.push_back(running);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'returns' outlives the iteration and each time a tensor that carries autograd history is stored in it, so each step's graph and saved activations stay reachable and memory grows with every step [torch-graph-in-container]
    // CHECK-FIXES: returns.push_back(running.detach());
  }
  torch::Tensor targets = torch::cat(returns);
  targets = targets.detach();
  auto batch = torch::stack(states);
  for (int epoch = 0; epoch < 4; ++epoch) {
    auto loss = (actor(batch).sum(1) - targets).pow(2).mean();
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
}

// The same returns detached only after the backward pass has walked them
// (the critic learns through its own bootstrapped targets): quiet.
void update_through_returns(torch::nn::Linear &critic,
                            torch::optim::Optimizer &optimizer,
                            const std::vector<float> &rewards,
                            const std::vector<torch::Tensor> &states) {
  torch::Tensor running = torch::zeros({1});
  std::vector<torch::Tensor> returns;
  for (size_t i = 0; i < rewards.size(); ++i) {
    if (i % 100 == 99)
      running = critic(states[i]).squeeze(1);
    running = rewards[i] + 0.99 * running;
    returns.push_back(running);
  }
  torch::Tensor targets = torch::cat(returns);
  auto loss = (critic(torch::stack(states)).squeeze(1) - targets).pow(2).mean();
  optimizer.zero_grad();
  loss.backward();
  optimizer.step();
  targets = targets.detach();
}
