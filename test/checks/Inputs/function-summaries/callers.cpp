#include "metrics.h"

void fit(torch::nn::Linear &model, torch::optim::SGD &opt, RunningMetrics &metrics,
         const std::vector<torch::Tensor> &xs) {
  for (const auto &x : xs) {
    opt.zero_grad();
    auto loss = model(x).pow(2).mean();
    // Backward walks it in the same iteration: only graph nodes are kept.
    metrics.add_loss(loss);
    metrics.add_number(loss.detach());
    metrics.add_clean(loss.detach());
    loss.backward();
    opt.step();
  }
}

void watch(torch::nn::Linear &model, RunningMetrics &metrics,
           const std::vector<torch::Tensor> &xs) {
  for (const auto &x : xs)
    metrics.add_output(model(x)); // no backward: its activations are kept
}

void clean(RunningMetrics &metrics, const torch::Tensor &x) {
  torch::NoGradGuard no_grad;
  metrics.add_clean(x * 2);
}

double mean_value(Rollout &rollout, torch::nn::Linear &critic,
                  const std::vector<torch::Tensor> &states) {
  auto values = rollout.values(critic, states);
  return torch::stack(values).mean().item<double>();
}

void policy_step(Rollout &rollout, torch::nn::Linear &actor, torch::optim::SGD &opt,
                 const std::vector<torch::Tensor> &states) {
  auto log_probs = rollout.log_probs(actor, states);
  opt.zero_grad();
  (-torch::stack(log_probs).sum()).backward();
  opt.step();
}
