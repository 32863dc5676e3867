// Mock of <torch/csrc/autograd/generated/variable_factories.h>: the torch::
// factory functions. As in the real LibTorch they are declared directly in
// namespace torch (they hide the at:: ones for `torch::zeros(...)` lookups).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <vector>

#include <ATen/ATen.h>
#include <torch/csrc/autograd/variable.h>

namespace torch {
namespace detail {

// Simplified torch::detail::TensorDataContainer (real:
// torch/csrc/api/include/torch/detail/TensorDataContainer.h).
struct TensorDataContainer {
  TensorDataContainer();
  // AT_FORALL_SCALAR_TYPES_AND3(Bool, Half, BFloat16, ...) scalar ctors.
  TensorDataContainer(uint8_t value);
  TensorDataContainer(int8_t value);
  TensorDataContainer(int16_t value);
  TensorDataContainer(int value);
  TensorDataContainer(int64_t value);
  TensorDataContainer(float value);
  TensorDataContainer(double value);
  TensorDataContainer(bool value);
  TensorDataContainer(std::initializer_list<TensorDataContainer> init_list);
  template <typename T>
  TensorDataContainer(at::ArrayRef<T> values);
  template <typename T>
  TensorDataContainer(const std::vector<T>& values);
};

} // namespace detail

inline at::Tensor tensor(detail::TensorDataContainer tensor_data_container, const at::TensorOptions& options = {}) {
  (void)tensor_data_container;
  (void)options;
  return at::Tensor();
}

inline at::Tensor from_blob(void* data, at::IntArrayRef sizes, const at::TensorOptions& options = at::TensorOptions()) {
  return at::from_blob(data, sizes, options);
}

inline at::Tensor arange(const at::Scalar & end, at::TensorOptions options = {}) {
  return at::arange(end, options);
}
inline at::Tensor arange(const at::Scalar & start, const at::Scalar & end, at::TensorOptions options = {}) {
  return at::arange(start, end, options);
}
inline at::Tensor arange(const at::Scalar & start, const at::Scalar & end, const at::Scalar & step, at::TensorOptions options = {}) {
  return at::arange(start, end, step, options);
}
inline at::Tensor empty(at::IntArrayRef size, at::TensorOptions options = {}, c10::optional<at::MemoryFormat> memory_format = c10::nullopt) {
  return at::empty(size, options, memory_format);
}
inline at::Tensor empty_like(const at::Tensor & self, at::TensorOptions options = {}, c10::optional<at::MemoryFormat> memory_format = c10::nullopt) {
  return at::empty_like(self, options, memory_format);
}
inline at::Tensor eye(int64_t n, at::TensorOptions options = {}) {
  return at::eye(n, options);
}
inline at::Tensor full(at::IntArrayRef size, const at::Scalar & fill_value, at::TensorOptions options = {}) {
  return at::full(size, fill_value, options);
}
inline at::Tensor linspace(const at::Scalar & start, const at::Scalar & end, int64_t steps, at::TensorOptions options = {}) {
  return at::linspace(start, end, steps, options);
}
inline at::Tensor ones(at::IntArrayRef size, at::TensorOptions options = {}) {
  return at::ones(size, options);
}
inline at::Tensor ones_like(const at::Tensor & self, at::TensorOptions options = {}, c10::optional<at::MemoryFormat> memory_format = c10::nullopt) {
  return at::ones_like(self, options, memory_format);
}
inline at::Tensor rand(at::IntArrayRef size, at::TensorOptions options = {}) {
  return at::rand(size, options);
}
inline at::Tensor randint(int64_t high, at::IntArrayRef size, at::TensorOptions options = at::kLong) {
  return at::randint(high, size, options);
}
inline at::Tensor randint(int64_t low, int64_t high, at::IntArrayRef size, at::TensorOptions options = at::kLong) {
  return at::randint(low, high, size, options);
}
inline at::Tensor randn(at::IntArrayRef size, at::TensorOptions options = {}) {
  return at::randn(size, options);
}
inline at::Tensor randn_like(const at::Tensor & self, at::TensorOptions options = {}, c10::optional<at::MemoryFormat> memory_format = c10::nullopt) {
  return at::randn_like(self, options, memory_format);
}
inline at::Tensor scalar_tensor(const at::Scalar & s, at::TensorOptions options = {}) {
  return at::scalar_tensor(s, options);
}
inline at::Tensor zeros(at::IntArrayRef size, at::TensorOptions options = {}) {
  return at::zeros(size, options);
}
inline at::Tensor zeros_like(const at::Tensor & self, at::TensorOptions options = {}, c10::optional<at::MemoryFormat> memory_format = c10::nullopt) {
  return at::zeros_like(self, options, memory_format);
}

} // namespace torch
