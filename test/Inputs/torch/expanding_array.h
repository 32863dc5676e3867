// Mock of <torch/expanding_array.h>.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <vector>

#include <c10/util/ArrayRef.h>

namespace torch {

/// A utility class that accepts either a container of `D`-many values, or a
/// single value, which is internally repeated `D` times.
template <size_t D, typename T = int64_t>
class ExpandingArray {
 public:
  /*implicit*/ ExpandingArray(std::initializer_list<T> list)
      : ExpandingArray(at::ArrayRef<T>(list)) {}
  /*implicit*/ ExpandingArray(std::vector<T> vec)
      : ExpandingArray(at::ArrayRef<T>(vec)) {}
  /*implicit*/ ExpandingArray(at::ArrayRef<T> values) {
    for (size_t i = 0; i < D && i < values.size(); ++i)
      values_[i] = values[i];
  }
  /*implicit*/ ExpandingArray(T single_size) {
    values_.fill(single_size);
  }
  /*implicit*/ ExpandingArray(const std::array<T, D>& values)
      : values_(values) {}

  std::array<T, D>& operator*() { return values_; }
  const std::array<T, D>& operator*() const { return values_; }
  std::array<T, D>* operator->() { return &values_; }
  const std::array<T, D>* operator->() const { return &values_; }
  operator at::ArrayRef<T>() const { return values_; }
  size_t size() const noexcept { return D; }

 protected:
  std::array<T, D> values_;
};

} // namespace torch
