// A header of the same name next to near.cpp: found before include/model.h.
#pragma once
#include <torch/torch.h>
#include <vector>

namespace project {

inline torch::Tensor sum_all(torch::nn::Linear &m,
                             const std::vector<torch::Tensor> &xs) {
  torch::Tensor near_total = torch::zeros({});
  for (const auto &x : xs)
    near_total += m(x).sum();
  return near_total.detach();
}

} // namespace project
