// RUN: %check_torch_tidy %s torch-eval-without-grad-guard %t

// A model's method that returns what its forward computes is the model's
// forward by another name, whatever the name says: `act_deterministic`
// has an evaluation word in it, but its callers are in view, and they
// decide. The one that reads the action as a number is evaluation code;
// the finding and its fix are there, not in the method, which a training
// step may differentiate through.

#include <torch/torch.h>

struct ActorImpl : torch::nn::Module {
  torch::nn::Linear fc{3, 8}, mean{8, 1};
  std::pair<torch::Tensor, torch::Tensor> forward_impl(const torch::Tensor &x) {
    auto h = torch::relu(fc->forward(x));
    return {mean->forward(h), h};
  }
  torch::Tensor act_deterministic(const torch::Tensor &state) {
    auto pair = forward_impl(state);
    return torch::tanh(pair.first);
  }
};
TORCH_MODULE(Actor);

struct Agent {
  Actor actor_;
  double select_action_eval(const torch::Tensor &state);
  torch::Tensor policy_loss(const torch::Tensor &states);
};

double Agent::select_action_eval(const torch::Tensor &state) {
  auto s = state.unsqueeze(0);
  auto a = actor_->act_deterministic(s);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode
  // CHECK-MESSAGES: :[[@LINE-2]]:12: note: its result is only read as numbers or detached and dropped in 'select_action_eval'
  // CHECK-FIXES: double Agent::select_action_eval(const torch::Tensor &state) {
  // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
  return (a * 2.0).item<double>();
}

// The same method in a training step: differentiated, nothing to report.
torch::Tensor Agent::policy_loss(const torch::Tensor &states) {
  auto loss = actor_->act_deterministic(states).pow(2).mean();
  loss.backward();
  return loss.detach();
}

// A method with an evaluation word and no call in view: only its name
// says how it runs, and the finding rests on what it does with the result.
struct Critic : torch::nn::Module {
  torch::nn::Linear v{3, 1};
  double evaluate_value(const torch::Tensor &state) {
    return v->forward(state).item<double>();
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode
  }
};

// A model's `predict` that implements its base class's: the callers of the
// base's method are its callers, and here they train through it.
struct BaseModel : torch::nn::Module {
  virtual torch::Tensor predict(const torch::Tensor &x) = 0;
};
struct Classifier : BaseModel {
  torch::nn::Linear fc{3, 2};
  torch::Tensor predict(const torch::Tensor &x) override {
    return fc->forward(x).log_softmax(-1);
  }
};
void fit(BaseModel &model, const torch::Tensor &x, const torch::Tensor &y) {
  torch::nll_loss(model.predict(x), y).backward();
}

// A policy's `Predict` that opens a guard of its own before it runs the
// network returns no graph: an agent that returns what it predicts needs
// no guard. The same method without the guard is a forward by another
// name, found at the agent's call.
struct PolicyBase : torch::nn::Module {
  torch::nn::Linear q{4, 2};
  std::array<torch::Tensor, 2> Predict(const torch::Tensor &obs) {
    torch::NoGradGuard no_grad;
    return {q->forward(obs), torch::Tensor()};
  }
  std::array<torch::Tensor, 2> PredictUnguarded(const torch::Tensor &obs) {
    return {q->forward(obs), torch::Tensor()};
  }
};

struct EpsilonGreedy {
  std::shared_ptr<PolicyBase> policy_;
  double eps_ = 0.1;
  std::array<torch::Tensor, 2> Predict(const torch::Tensor &obs) {
    if (torch::rand({1}).item<double>() < eps_)
      return {torch::randint(2, {1}), torch::Tensor()};
    return policy_->Predict(obs);
  }
  std::array<torch::Tensor, 2> PredictFast(const torch::Tensor &obs) {
    return policy_->PredictUnguarded(obs);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode
  }
};
