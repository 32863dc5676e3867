// The header every unit includes: it keeps the graph when told to.
#pragma once
#include <torch/torch.h>
#include <vector>

namespace project {

inline torch::Tensor sum_all(torch::nn::Linear &m,
                             const std::vector<torch::Tensor> &xs) {
  torch::Tensor total = torch::zeros({});
  for (const auto &x : xs)
#if defined(KEEP_GRAPH) || !defined(__STRICT_ANSI__)
    total += m(x).sum();
#else
    total += m(x).sum().detach();
#endif
  return total.detach();
}

} // namespace project
