// Mock of <torch/nn/modules/container/any_value.h> (declarations only).
#pragma once

#include <memory>
#include <typeinfo>
#include <utility>

#include <torch/types.h>

namespace torch {
namespace nn {

/// An implementation of `std::any` which stores a type erased object.
class AnyValue {
 public:
  AnyValue(AnyValue&&) = default;
  AnyValue& operator=(AnyValue&&) = default;
  AnyValue(const AnyValue& other);
  AnyValue& operator=(const AnyValue& other);

  template <typename T>
  explicit AnyValue(T&& value);

  template <typename T>
  T* try_get();

  template <typename T>
  T get();

  const std::type_info& type_info() const noexcept;

 private:
  std::shared_ptr<void> content_;
};

} // namespace nn
} // namespace torch
