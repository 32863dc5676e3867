// D: may a backward pass walk the history of this value?
// RUN: %analysis_dump %s -- %mock_torch | sort -t: -k1,1n | FileCheck %s -implicit-check-not=differentiated=

#include <torch/torch.h>
#include <vector>

void probe_differentiated(const torch::Tensor &);
void show(const torch::Tensor &);

void here(torch::nn::Linear &model, const torch::Tensor &x) {
  auto out = model(x);
  // CHECK: [[@LINE+1]]:3: differentiated=yes
  probe_differentiated(out);
  auto loss = out.pow(2).mean();
  loss.backward();
  // Only shown: a function outside view is not assumed to differentiate.
  // CHECK: [[@LINE+1]]:3: differentiated=no
  probe_differentiated(model(x));
}

// Returned: what the callers do with it.
torch::Tensor logits(torch::nn::Linear &model, const torch::Tensor &x) {
  auto out = model(x);
  // CHECK: [[@LINE+1]]:3: differentiated=yes
  probe_differentiated(out);
  return out * 2;
}
void train(torch::nn::Linear &model, const torch::Tensor &x) {
  logits(model, x).sum().backward();
}
torch::Tensor scores(torch::nn::Linear &model, const torch::Tensor &x) {
  auto out = model(x);
  // CHECK: [[@LINE+1]]:3: differentiated=no
  probe_differentiated(out);
  return out.softmax(-1);
}
void report(torch::nn::Linear &model, const torch::Tensor &x) {
  show(scores(model, x));
}

// Kept in a member that a backward pass of the unit walks.
struct Agent {
  torch::nn::Linear policy{4, 2};
  std::vector<torch::Tensor> log_probs_;
  void act(const torch::Tensor &obs) {
    auto logp = policy(obs).log_softmax(-1);
    // CHECK: [[@LINE+1]]:5: differentiated=yes
    probe_differentiated(logp);
    log_probs_.push_back(logp);
  }
  void update() { torch::stack(log_probs_).sum().backward(); }
};
