// RUN: %check_torch_tidy %s torch-eval-without-grad-guard %t

// Methods of a module that run its layers are its forward by another name,
// and its callers decide, even when the name says evaluation
// (`predict`): a method that fills a struct of outputs field by field
// (`output.values = critic_(features); return output;`) returns what its
// layers compute, as one that returns them directly does; and a lambda the
// module's forward runs (`std::visit([&](auto &layer) { x = layer(x); },
// layer)`) is part of that forward. A caller that differentiates the
// result shows the method serves training too. A module method whose
// result nothing in view differentiates, and which does not hand it back,
// is evaluation code by its name.

#include <torch/torch.h>
#include <variant>
#include <vector>

struct PolicyOutput {
  torch::Tensor action;
  torch::Tensor values;
  torch::Tensor log_probs;
  std::vector<torch::Tensor> state;
};

struct ActorCriticImpl : torch::nn::Module {
  torch::nn::Linear shared{4, 4}, critic{4, 1}, actor{4, 2};
  torch::nn::GRUCell cell{4, 4};
  std::vector<std::variant<torch::nn::Linear, torch::nn::ReLU>> layers{
      torch::nn::Linear(4, 4), torch::nn::ReLU()};

  PolicyOutput predict(const torch::Tensor &obs, const torch::Tensor &hidden) {
    PolicyOutput output;
    auto features = shared(obs);
    features = cell(features, hidden);
    output.state = {features};
    output.values = critic(features);
    auto logits = actor(features);
    output.action = logits.argmax(1);
    std::tie(output.log_probs, output.action) = logits.log_softmax(1).max(1);
    return output;
  }

  torch::Tensor forward(const torch::Tensor &input) {
    torch::Tensor x = input;
    for (auto &layer : layers)
      std::visit([&](auto &l) { x = l(x); }, layer);
    return x;
  }

  // Nothing in view differentiates what it returns: evaluation code by its
  // name.
  double evaluate_value(const torch::Tensor &obs) {
    return critic(shared(obs)).mean().item<double>();
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: the model runs forward in evaluation code
    // CHECK-MESSAGES: :[[@LINE-2]]:12: note: its result is only read as numbers or detached and dropped in 'evaluate_value'
    // CHECK-FIXES: double evaluate_value(const torch::Tensor &obs) {
    // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
  }
};
TORCH_MODULE(ActorCritic);

void update(ActorCritic &model, torch::optim::Adam &opt,
            const std::vector<torch::Tensor> &obs, const torch::Tensor &h) {
  for (const auto &o : obs) {
    auto out = model->predict(o, h);
    auto loss = out.values.pow(2).mean() - out.log_probs.mean() +
                model->forward(o).pow(2).mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
}

double score(ActorCritic &model, const std::vector<torch::Tensor> &obs) {
  double total = 0;
  for (const auto &o : obs)
    total += model->evaluate_value(o);
  return total;
}
