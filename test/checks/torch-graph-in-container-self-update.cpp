// RUN: %check_torch_tidy %s torch-graph-in-container %t

// A write into a tensor of a value computed, by arithmetic with numbers,
// only from the tensor's own elements (Dirichlet noise mixed into a
// policy's probabilities, one action at a time) takes in no graph from
// outside: like an in-place `mul_(0.5)`, it changes elements of the graph
// the tensor already holds. The loop that writes it is then no loop of
// growth; the loop around it, if any, is judged. A value that brings in
// another graph is still a store of that graph.

#include <torch/torch.h>
#include <random>
#include <vector>

struct PolicyImpl : torch::nn::Module {
  torch::nn::Linear fc{4, 3};
  torch::Tensor forward(const torch::Tensor &x) { return fc(x).softmax(1); }
};
TORCH_MODULE(Policy);

std::vector<float> explore(Policy &policy, const std::vector<torch::Tensor> &states,
                           std::mt19937 &gen, double frac) {
  std::gamma_distribution<double> dirichlet(0.3, 1.0);
  std::vector<float> firsts;
  for (const auto &state : states) {
    torch::Tensor probs = policy->forward(state);
    for (int j = 0; j < 3; ++j) {
      double noise = dirichlet(gen);
      probs[0][j] = probs[0][j] * (1 - frac) + noise * frac;
    }
    firsts.push_back(probs[0][0].item<float>());
  }
  return firsts;
}

// The mixed value brings in the output of another forward on every step.
torch::Tensor blend(Policy &policy, const std::vector<torch::Tensor> &states) {
  torch::Tensor mix = torch::zeros({1, 3});
  for (const auto &state : states) {
    torch::Tensor other = policy->forward(state);
    for (int j = 0; j < 3; ++j)
      mix[0][j] = mix[0][j] * 0.5 + other[0][j];
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'mix' outlives the iteration and each time a tensor that carries autograd history is stored in it
    // CHECK-FIXES: mix[0][j] = (mix[0][j] * 0.5 + other[0][j]).detach();
  }
  return mix.detach();
}
