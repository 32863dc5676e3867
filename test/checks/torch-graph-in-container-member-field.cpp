// RUN: %check_torch_tidy %s torch-graph-in-container %t

// A container that is a field of a member object (`policy_.saved_log_probs`,
// the policy module held by an agent) is bounded on purpose when the unit
// backpropagates through what it holds and clears that same field: the
// agent keeps one episode's log-probabilities for its update. Clearing some
// other field of the member bounds nothing.

#include <torch/torch.h>
#include <vector>

struct PolicyImpl : torch::nn::Module {
  torch::nn::Linear fc{4, 2};
  std::vector<torch::Tensor> saved_log_probs;
  std::vector<float> rewards;
  torch::Tensor forward(const torch::Tensor &x) { return torch::softmax(fc(x), 1); }
};

// ---- Not flagged ------------------------------------------------------------

// Filled every step, summed by index, backpropagated and cleared once per
// episode.
class Agent {
public:
  void update_action(const torch::Tensor &state) {
    auto probs = policy_.forward(state);
    auto action = torch::multinomial(probs, 1);
    policy_.saved_log_probs.push_back(torch::log(probs.index({0, action.item<int>()})));
  }
  void update_policy(torch::optim::Adam &optimizer) {
    torch::Tensor loss = torch::zeros({});
    for (size_t i = 0; i < policy_.saved_log_probs.size(); ++i)
      loss += -policy_.saved_log_probs[i];
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
    policy_.rewards.clear();
    policy_.saved_log_probs.clear();
  }

private:
  PolicyImpl policy_;
};

// The same through a pointer to the member object.
class PointerAgent {
public:
  void update_action(const torch::Tensor &state) {
    policy_->saved_log_probs.push_back(torch::log(policy_->forward(state)).select(1, 0));
  }
  void update_policy(torch::optim::Adam &optimizer) {
    auto loss = -torch::stack(policy_->saved_log_probs).sum();
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
    policy_->saved_log_probs.clear();
  }

private:
  std::shared_ptr<PolicyImpl> policy_ = std::make_shared<PolicyImpl>();
};

// ---- Flagged ----------------------------------------------------------------

// Backpropagated every episode, but only the rewards are cleared: the list
// keeps every episode's graph.
class ForgetfulAgent {
public:
  void update_action(const torch::Tensor &state) {
    auto probs = policy_.forward(state);
    policy_.saved_log_probs.push_back(torch::log(probs).select(1, 0));
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'policy_' outlives the call and each time a tensor that carries autograd history is stored in it, so each step's graph and saved activations stay reachable and memory grows with every step [torch-graph-in-container]
    // CHECK-MESSAGES: :[[@LINE-2]]:5: note: no fix: a backward pass walks this graph, so detaching what is stored would change its gradients
  }
  void update_policy(torch::optim::Adam &optimizer) {
    auto loss = -torch::stack(policy_.saved_log_probs).sum();
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
    policy_.rewards.clear();
  }

private:
  PolicyImpl policy_;
};

// Cleared, but never backpropagated: the graphs are kept for nothing until
// the clear.
class ReadOnlyAgent {
public:
  void update_action(const torch::Tensor &state) {
    auto probs = policy_.forward(state);
    policy_.saved_log_probs.push_back(torch::log(probs).select(1, 0));
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'policy_' outlives the call and each time a tensor that carries autograd history is stored in it, so each step's graph and saved activations stay reachable and memory grows with every step [torch-graph-in-container]
    // CHECK-FIXES: policy_.saved_log_probs.push_back(torch::log(probs).select(1, 0).detach());
  }
  float episode_mean() {
    float mean = torch::stack(policy_.saved_log_probs).mean().item<float>();
    policy_.saved_log_probs.clear();
    return mean;
  }

private:
  PolicyImpl policy_;
};
