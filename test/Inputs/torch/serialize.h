// Mock of <torch/serialize.h> (torch::save / torch::load for modules,
// tensors and optimizers).
#pragma once

#include <utility>
#include <vector>

#include <torch/types.h>

namespace torch {

template <typename Value, typename... SaveToArgs>
void save(const Value& value, SaveToArgs&&... args) {
  (void)value;
  (void)sizeof...(args);
}

template <typename... SaveToArgs>
void save(const std::vector<torch::Tensor>& tensor_vec, SaveToArgs&&... args) {
  (void)tensor_vec;
  (void)sizeof...(args);
}

template <typename Value, typename... LoadFromArgs>
void load(Value& value, LoadFromArgs&&... args) {
  (void)value;
  (void)sizeof...(args);
}

template <typename... LoadFromArgs>
void load(std::vector<torch::Tensor>& tensor_vec, LoadFromArgs&&... args) {
  (void)tensor_vec;
  (void)sizeof...(args);
}

} // namespace torch
