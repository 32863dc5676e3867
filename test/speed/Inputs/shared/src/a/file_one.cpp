// file_one.cpp: its preamble expands __FILE__.
#include <torch/torch.h>
#include <vector>
#pragma message(__FILE__)
#include "model.h"
#define ACC(acc, value) acc += value

double file_one(torch::nn::Linear &m, const std::vector<torch::Tensor> &xs) {
  torch::Tensor t = torch::zeros({});
  for (const auto &x : xs)
    ACC(t, m(x).sum());
  return project::sum_all(m, xs).item<double>() + t.item<double>();
}
