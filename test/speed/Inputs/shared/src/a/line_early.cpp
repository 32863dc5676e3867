// line_early.cpp: __LINE__ is small here.
#include <torch/torch.h>
#include <vector>
#if __LINE__ > 8
#define KEEP_GRAPH 1
#endif
#include "model.h"
#define ACC(acc, value) acc += value

double line_early(torch::nn::Linear &m, const std::vector<torch::Tensor> &xs) {
  torch::Tensor t = torch::zeros({});
  for (const auto &x : xs)
    ACC(t, m(x).sum());
  return project::sum_all(m, xs).item<double>() + t.item<double>();
}
