// RUN: %check_torch_tidy %s torch-graph-in-container %t

// A tensor filled chunk by chunk in a loop, from which only numbers reach the
// function's result (the index of the farthest feature, which the result is
// selected with), builds nothing the caller could differentiate: every
// chunk's graph is kept for nothing until the step ends. A function that
// returns the filled tensor itself leaves it to its caller.

#include <torch/torch.h>
#include <vector>

struct Bank {
  torch::nn::Linear extractor{16, 8};
  torch::Tensor features_, core_;

  void build(const torch::Tensor &images) {
    features_ = extractor(images);
    core_ = sample(features_, 4);
  }

  torch::Tensor sample(const torch::Tensor &features, int64_t k) {
    int64_t n = features.size(0);
    std::vector<int64_t> picked{0};
    for (int64_t step = 1; step < k; ++step) {
      torch::Tensor dist = torch::full({n}, 1e9);
      torch::Tensor last = features[picked.back()];
      for (int64_t start = 0; start < n; start += 64) {
        torch::Tensor chunk = features.slice(0, start, start + 64);
        dist.slice(0, start, start + 64) = (chunk - last).pow(2).sum(1);
        // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'dist' outlives the iteration and each time a tensor that carries autograd history is stored in it
        // CHECK-FIXES: dist.slice(0, start, start + 64) = (chunk - last).pow(2).sum(1).detach();
      }
      picked.push_back(dist.argmax().item<int64_t>());
    }
    return features.index_select(0, torch::tensor(picked));
  }

  // The filled tensor is the result: the caller decides.
  torch::Tensor distances(const torch::Tensor &features) {
    int64_t n = features.size(0);
    torch::Tensor dist = torch::zeros({n});
    for (int64_t start = 0; start < n; start += 64)
      dist.slice(0, start, start + 64) = features.slice(0, start, start + 64).pow(2).sum(1);
    return dist;
  }
};

torch::Tensor spread(Bank &bank, const torch::Tensor &x) {
  bank.build(x);
  return bank.distances(bank.extractor(x));
}
