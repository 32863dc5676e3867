#pragma once
#include <torch/torch.h>
#include <tuple>

// A policy whose LSTM state is fed back on every forward and that offers a
// reset (defined in the unit under test).
struct RecurrentPolicyImpl : torch::nn::Module {
  torch::nn::LSTM lstm{torch::nn::LSTMOptions(4, 8)};
  torch::nn::Linear head{8, 2};
  std::tuple<torch::Tensor, torch::Tensor> hx{torch::zeros({1, 1, 8}),
                                              torch::zeros({1, 1, 8})};
  torch::Tensor forward(const torch::Tensor &x, bool keep_state);
  void reset();
};
TORCH_MODULE(RecurrentPolicy);
