#pragma once
#include <torch/torch.h>

struct ModelImpl : torch::nn::Module {
  ModelImpl() : fc(register_module("fc", torch::nn::Linear(16, 1))) {}
  torch::Tensor forward(const torch::Tensor &x) { return fc(x); }
  torch::nn::Linear fc;
};
TORCH_MODULE(Model);
