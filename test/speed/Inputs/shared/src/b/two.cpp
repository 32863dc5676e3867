// two.cpp: the same directives as one.cpp, with comments of its own
// and another layout, so that every offset differs.

#include <torch/torch.h>  // LibTorch

#include <vector>
#include "model.h"       // the project's model
/* Accumulates. */
#define ACC(acc, value)   acc += value

double two(torch::nn::Linear &m, const std::vector<torch::Tensor> &xs) {
  torch::Tensor t = torch::zeros({});
  for (const auto &x : xs)
    ACC(t, m(x).sum());
  return project::sum_all(m, xs).item<double>() + t.item<double>();
}
