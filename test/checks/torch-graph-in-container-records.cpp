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

// ---- A class whose members its constructor sets ----------------------------

// The loss terms are private members, set by the constructor through the
// class's own methods; the optimizer's closure assigns the record each
// epoch, and the record is kept every `every` epochs with its graph.
class PinnLosses {
public:
  PinnLosses() = default;
  PinnLosses(torch::nn::Linear &model, const torch::Tensor &x) : model_(model) {
    physicsLoss(x);
    total_ = physics_ * 2;
  }
  torch::Tensor total() const { return total_; }

private:
  void physicsLoss(const torch::Tensor &x) { physics_ = model_->forward(x).pow(2).mean(); }
  torch::nn::Linear model_{nullptr};
  torch::Tensor total_, physics_;
};

template <size_t N>
std::array<PinnLosses, N> trainWithClosure(torch::nn::Linear &model, const torch::Tensor &x,
                                           torch::optim::LBFGS &opt, int epochs, int every) {
  std::array<PinnLosses, N> all_losses;
  for (int epoch = 0; epoch < epochs; ++epoch) {
    PinnLosses losses{};
    auto closure = [&]() -> torch::Tensor {
      opt.zero_grad();
      losses = PinnLosses(model, x);
      auto loss = losses.total();
      loss.backward();
      return loss;
    };
    opt.step(closure);
    if (epoch % every == 0)
      all_losses[epoch / every] = std::move(losses);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'all_losses' outlives the iteration and each time a tensor that carries autograd history is stored in it
  }
  return all_losses;
}

// A record whose constructor keeps only numbers' worth of each term.
class DetachedLosses {
public:
  DetachedLosses() = default;
  DetachedLosses(torch::nn::Linear &model, const torch::Tensor &x)
      : total_(model->forward(x).pow(2).mean().detach()) {}

private:
  torch::Tensor total_;
};

template <size_t N>
std::array<DetachedLosses, N> logDetached(torch::nn::Linear &model, const torch::Tensor &x,
                                          torch::optim::LBFGS &opt, int epochs) {
  std::array<DetachedLosses, N> all_losses;
  for (int epoch = 0; epoch < epochs; ++epoch) {
    DetachedLosses losses{};
    auto closure = [&]() -> torch::Tensor {
      opt.zero_grad();
      losses = DetachedLosses(model, x);
      auto loss = model->forward(x).pow(2).mean();
      loss.backward();
      return loss;
    };
    opt.step(closure);
    all_losses[epoch % N] = std::move(losses);
  }
  return all_losses;
}

int runClosures(torch::nn::Linear &model, torch::optim::LBFGS &opt) {
  auto x = torch::randn({8, 4});
  auto kept = trainWithClosure<10>(model, x, opt, 100, 10);
  auto quiet = logDetached<10>(model, x, opt, 100);
  return static_cast<int>(kept.size() + quiet.size());
}
