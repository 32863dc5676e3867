// line_late.cpp: the same directives as line_early.cpp, further down,
// where __LINE__ is larger.
//
//
//
//
#include <torch/torch.h>
#include <vector>
#if __LINE__ > 8
#define KEEP_GRAPH 1
#endif
#include "model.h"
#define ACC(acc, value) acc += value

double line_late(torch::nn::Linear &m, const std::vector<torch::Tensor> &xs) {
  torch::Tensor t = torch::zeros({});
  for (const auto &x : xs)
    ACC(t, m(x).sum());
  return project::sum_all(m, xs).item<double>() + t.item<double>();
}
