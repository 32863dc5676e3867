#include "potential.h"

PotentialImpl::PotentialImpl() {
  energy = register_module("energy", torch::nn::Linear(3, 1));
}

std::tuple<torch::Tensor, torch::Tensor>
PotentialImpl::forward(torch::Tensor positions) {
  positions.set_requires_grad(true);
  auto e = energy(positions).sum();
  auto forces = -torch::autograd::grad({e}, {positions}, {}, true)[0];
  return {e, forces};
}

static torch::Tensor gradient_of(const torch::Tensor &e,
                                 const torch::Tensor &x) {
  return torch::autograd::grad({e}, {x}, {}, true)[0];
}

HelperPotentialImpl::HelperPotentialImpl() {
  energy = register_module("energy", torch::nn::Linear(3, 1));
}

std::tuple<torch::Tensor, torch::Tensor>
HelperPotentialImpl::forward(torch::Tensor positions) {
  positions.set_requires_grad(true);
  auto e = energy(positions).sum();
  return {e, -gradient_of(e, positions)};
}

EnergyOnlyImpl::EnergyOnlyImpl() {
  energy = register_module("energy", torch::nn::Linear(3, 1));
}

torch::Tensor EnergyOnlyImpl::forward(torch::Tensor positions) {
  return energy(positions).sum();
}
