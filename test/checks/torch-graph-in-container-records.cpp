// RUN: %check_torch_tidy %s torch-graph-in-container %t

// A container of records that hold tensors (a replay memory of transitions,
// a list of per-epoch loss records) keeps the graphs of the tensors its
// records hold, as a container of tensors does. What a record carries is
// judged field by field: a transition built from environment tensors and a
// detached action keeps nothing.

#include <torch/torch.h>
#include <array>
#include <deque>
#include <vector>

struct Losses {
  torch::Tensor total, physics;
};

Losses computeLosses(torch::nn::Linear &model, const torch::Tensor &x) {
  Losses l;
  l.physics = model->forward(x).pow(2).mean();
  l.total = l.physics * 2;
  return l;
}

struct Transition {
  torch::Tensor state;
  torch::Tensor action;
  float reward;
};

// ---- Flagged ----------------------------------------------------------------

// Every epochs_diff epochs the whole record is kept, with the graph its
// tensors carry (retained for a second backward).
template <size_t N>
std::array<Losses, N> trainAndLog(torch::nn::Linear &model, const torch::Tensor &x,
                                  torch::optim::Adam &opt, int epochs, int every) {
  std::array<Losses, N> all_losses;
  Losses losses;
  for (int epoch = 0; epoch < epochs; ++epoch) {
    opt.zero_grad();
    losses = computeLosses(model, x);
    losses.total.backward({}, /*retain_graph=*/true);
    opt.step();
    if (epoch % every == 0)
      all_losses[epoch / every] = std::move(losses);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'all_losses' outlives the iteration and each time a tensor that carries autograd history is stored in it
  }
  return all_losses;
}

int runLogged(torch::nn::Linear &model, torch::optim::Adam &opt) {
  auto x = torch::randn({8, 4});
  std::array<Losses, 10> logged = trainAndLog<10>(model, x, opt, 100, 10);
  return static_cast<int>(logged.size());
}

// The agent's acting step stores the sampled action with the policy's
// graph in a member memory, on every call.
class Agent {
public:
  torch::Tensor act(const torch::Tensor &state) {
    torch::Tensor action = torch::tanh(policy_->forward(state));
    trim();
    memory_.push_back(Transition{state, action, 1.0f});
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'memory_' outlives the call and each time a tensor that carries autograd history is stored in it
    return action;
  }
  // A memory fed detached actions: its records carry no history.
  torch::Tensor actDetached(const torch::Tensor &state) {
    torch::Tensor action = torch::tanh(policy_->forward(state)).detach();
    detached_.push_back(Transition{state, action, 1.0f});
    return action;
  }

private:
  void trim() {
    if (memory_.size() > 1000)
      memory_.pop_front();
  }
  torch::nn::Linear policy_{4, 2};
  std::deque<Transition> memory_, detached_;
};

// ---- Not flagged ------------------------------------------------------------

// Loss records with numbers only, read with item().
struct EpochLog {
  float total;
  torch::Tensor sizes;
};

std::vector<EpochLog> trainQuietly(torch::nn::Linear &model, const torch::Tensor &x,
                                   torch::optim::Adam &opt, int epochs) {
  std::vector<EpochLog> log;
  for (int epoch = 0; epoch < epochs; ++epoch) {
    opt.zero_grad();
    Losses losses = computeLosses(model, x);
    losses.total.backward();
    opt.step();
    log.push_back(EpochLog{losses.total.item<float>(), torch::ones({1})});
  }
  return log;
}
