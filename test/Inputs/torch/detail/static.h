// Mock of <torch/detail/static.h> (identical traits).
#pragma once

#include <cstdint>
#include <type_traits>

#include <torch/types.h>

namespace torch {
namespace nn {
class Module;
} // namespace nn
} // namespace torch

namespace torch {
namespace detail {

/// Detects if a type T has a forward() method (non-template, non-overloaded).
template <typename T>
struct has_forward {
  using yes = int8_t;
  using no = int16_t;

  template <typename U>
  static yes test(decltype(&U::forward));

  template <typename U>
  static no test(...);

  static constexpr bool value = (sizeof(test<T>(nullptr)) == sizeof(yes));
};

template <typename M>
using is_module =
    std::is_base_of<torch::nn::Module, typename std::decay<M>::type>;

template <typename M, typename T = void>
using enable_if_module_t =
    typename std::enable_if<is_module<M>::value, T>::type;

} // namespace detail

template <bool B, typename T = void>
using disable_if_t = typename std::enable_if<!B, T>::type;
template <bool B, typename T = void>
using enable_if_t = typename std::enable_if<B, T>::type;
template <typename T>
using decay_t = typename std::decay<T>::type;

} // namespace torch
