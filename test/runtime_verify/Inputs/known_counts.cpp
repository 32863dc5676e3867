// Hand-written loops whose autograd graphs grow by a known number of nodes
// per iteration; the probe must report exactly these counts.
#include <torch/torch.h>
#include "torch_tidy/probe.h"

#include <map>
#include <tuple>
#include <vector>

int main() {
  torch::Tensor w = torch::ones({4}, torch::requires_grad());
  torch::Tensor x = torch::full({4}, 2.0);

  // acc = acc + x * w: MulBackward0 and AddBackward0 per iteration, plus
  // w's AccumulateGrad once: 2k + 1 nodes after k iterations.
  torch::Tensor acc = torch::zeros({4});
  for (int i = 0; i < 3; ++i) {
    acc = acc + x * w;
    TORCH_TIDY_PROBE("sum", acc);
  }

  // The same sum with the history dropped: no node at all.
  torch::Tensor plain = torch::zeros({4});
  for (int i = 0; i < 3; ++i) {
    plain = plain + (x * w).detach();
    TORCH_TIDY_PROBE("detached", plain);
  }

  // A container of products: one MulBackward0 each, one shared
  // AccumulateGrad: k + 1.
  std::vector<torch::Tensor> outputs;
  for (int i = 0; i < 3; ++i) {
    outputs.push_back(x * w);
    TORCH_TIDY_PROBE("vector", outputs);
  }

  // Two tuples that share a graph, and a map: every node counted once.
  torch::Tensor y = x * w;          // MulBackward0 -> AccumulateGrad
  torch::Tensor z = y.sin();        // SinBackward0
  std::map<int, torch::Tensor> by_key{{0, y}, {1, z}};
  TORCH_TIDY_PROBE("shared", std::make_tuple(y, z), std::make_pair(z, y), by_key);

  // A recurrent state: h = tanh(h * w + x) keeps three nodes per step.
  torch::Tensor h = torch::zeros({4});
  for (int i = 0; i < 3; ++i) {
    h = torch::tanh(h * w + x);
    TORCH_TIDY_PROBE("recurrent", h);
  }
  return 0;
}
