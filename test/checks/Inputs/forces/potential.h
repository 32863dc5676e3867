// A machine-learned potential: its forward predicts the energy of a
// configuration and computes the forces as the gradient of that energy.
#pragma once
#include <torch/torch.h>
#include <tuple>

struct PotentialImpl : torch::nn::Module {
  PotentialImpl();
  std::tuple<torch::Tensor, torch::Tensor> forward(torch::Tensor positions);
  torch::nn::Linear energy{nullptr};
};
TORCH_MODULE(Potential);

// The same model, but the gradient is taken by a helper its forward calls.
struct HelperPotentialImpl : torch::nn::Module {
  HelperPotentialImpl();
  std::tuple<torch::Tensor, torch::Tensor> forward(torch::Tensor positions);
  torch::nn::Linear energy{nullptr};
};
TORCH_MODULE(HelperPotential);

// A model whose forward only predicts: nothing is differentiated in it.
struct EnergyOnlyImpl : torch::nn::Module {
  EnergyOnlyImpl();
  torch::Tensor forward(torch::Tensor positions);
  torch::nn::Linear energy{nullptr};
};
TORCH_MODULE(EnergyOnly);
