// A rollout buffer kept in an object between updates and cleared after
// each: bounded on purpose when the update's backward pass walks what it
// holds (REINFORCE over the stored log-probabilities). When the update reads
// it only through a copy cut from the graph (`torch::cat(values).detach()`,
// as PPO's advantages and old log-probabilities are), no backward pass walks
// the stored graphs, and each is kept for nothing until the clear.
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
