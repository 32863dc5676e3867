// Mock of <ATen/TensorIndexing.h> (at::indexing::{None, Ellipsis, Slice,
// TensorIndex}; usable as torch::indexing::... through `using namespace at`).
#pragma once

#include <cstdint>
#include <type_traits>

#include <ATen/core/TensorBody.h>
#include <c10/util/Optional.h>

namespace at {
namespace indexing {

enum class TensorIndexType { None, Ellipsis, Integer, Boolean, Slice, Tensor };

constexpr c10::nullopt_t None = c10::nullopt;

struct TORCH_API EllipsisIndexType final {
  EllipsisIndexType() {}
};
TORCH_API extern const EllipsisIndexType Ellipsis;

struct TORCH_API Slice final {
 public:
  Slice(
      c10::optional<int64_t> start_index = c10::nullopt,
      c10::optional<int64_t> stop_index = c10::nullopt,
      c10::optional<int64_t> step_index = c10::nullopt)
      : start_(start_index.value_or(0)),
        stop_(stop_index.value_or(INT64_MAX)),
        step_(step_index.value_or(1)) {}

  inline int64_t start() const { return start_; }
  inline int64_t stop() const { return stop_; }
  inline int64_t step() const { return step_; }

 private:
  int64_t start_;
  int64_t stop_;
  int64_t step_;
};

struct TORCH_API TensorIndex final {
  // Case 1: `at::indexing::None`
  TensorIndex(c10::nullopt_t) : type_(TensorIndexType::None) {}

  // Case 2: "..." / `at::indexing::Ellipsis`
  TensorIndex(at::indexing::EllipsisIndexType)
      : type_(TensorIndexType::Ellipsis) {}
  TensorIndex(const char* str) : TensorIndex(at::indexing::Ellipsis) {
    (void)str;
  }

  // Case 3: Integer value
  TensorIndex(int64_t integer)
      : integer_(integer), type_(TensorIndexType::Integer) {}
  TensorIndex(int integer) : TensorIndex((int64_t)integer) {}

  // Case 4: Boolean value
  template <
      class T,
      class = typename std::enable_if<std::is_same<bool, T>::value>::type>
  TensorIndex(T boolean) : boolean_(boolean), type_(TensorIndexType::Boolean) {}

  // Case 5: Slice represented in `at::indexing::Slice` form
  TensorIndex(Slice slice)
      : slice_(std::move(slice)), type_(TensorIndexType::Slice) {}

  // Case 6: Tensor value
  TensorIndex(Tensor tensor)
      : tensor_(std::move(tensor)), type_(TensorIndexType::Tensor) {}

  inline bool is_none() const { return type_ == TensorIndexType::None; }
  inline bool is_ellipsis() const { return type_ == TensorIndexType::Ellipsis; }
  inline bool is_integer() const { return type_ == TensorIndexType::Integer; }
  inline int64_t integer() const { return integer_; }
  inline bool is_boolean() const { return type_ == TensorIndexType::Boolean; }
  inline bool boolean() const { return boolean_; }
  inline bool is_slice() const { return type_ == TensorIndexType::Slice; }
  inline const Slice& slice() const { return slice_; }
  inline bool is_tensor() const { return type_ == TensorIndexType::Tensor; }
  inline const Tensor& tensor() const { return tensor_; }

 private:
  int64_t integer_ = 0;
  bool boolean_ = false;
  Slice slice_;
  Tensor tensor_;
  TensorIndexType type_;
};

} // namespace indexing
} // namespace at
