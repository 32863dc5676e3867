// Mock of <ATen/core/TensorBase.h>: the accessors that the real LibTorch
// declares on at::TensorBase (at::Tensor derives from it).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include <c10/core/Device.h>
#include <c10/core/MemoryFormat.h>
#include <c10/core/Scalar.h>
#include <c10/core/ScalarType.h>
#include <c10/core/TensorOptions.h>
#include <c10/macros/Macros.h>
#include <c10/util/ArrayRef.h>
#include <c10/util/Optional.h>

namespace torch {
namespace autograd {
struct Node;
} // namespace autograd
} // namespace torch

namespace at {

class Tensor;

class TORCH_API TensorBase {
 public:
  TensorBase() = default;
  TensorBase(const TensorBase&) = default;
  TensorBase(TensorBase&&) noexcept = default;

  TensorBase& operator=(const TensorBase& x) & {
    impl_ = x.impl_;
    return *this;
  }
  TensorBase& operator=(TensorBase&& x) & noexcept {
    impl_ = std::move(x.impl_);
    return *this;
  }

  int64_t dim() const;
  int64_t storage_offset() const;

  TensorBase contiguous(MemoryFormat memory_format = MemoryFormat::Contiguous) const;

  int64_t size(int64_t dim) const;
  int64_t stride(int64_t dim) const;

  bool defined() const { return impl_ != nullptr; }
  // The real one returns the intrusive_ptr<TensorImpl>.
  const std::shared_ptr<void>& getIntrusivePtr() const { return impl_; }
  void reset() { impl_.reset(); }
  size_t use_count() const noexcept { return impl_.use_count(); }
  bool is_same(const TensorBase& other) const noexcept {
    return impl_ == other.impl_;
  }

  std::string toString() const;

  IntArrayRef sizes() const;
  IntArrayRef strides() const;
  int64_t ndimension() const { return dim(); }
  bool is_contiguous(MemoryFormat memory_format = MemoryFormat::Contiguous) const;

  size_t nbytes() const;
  int64_t numel() const;
  size_t itemsize() const;
  int64_t element_size() const;

  ScalarType scalar_type() const;
  bool has_storage() const;
  Device device() const;
  int64_t get_device() const;
  bool is_cpu() const;
  bool is_cuda() const;
  bool is_sparse() const;
  bool is_floating_point() const;
  bool is_complex() const;
  TensorOptions options() const;

  void* data_ptr() const;
  template <typename T>
  T* data_ptr() const {
    return static_cast<T*>(data_ptr());
  }

  void print() const;

  const TensorBase& set_requires_grad(bool requires_grad) const;
  bool requires_grad() const;

  const std::shared_ptr<torch::autograd::Node>& grad_fn() const;

  // Variable methods
  bool is_leaf() const;
  int64_t output_nr() const;
  void set_data(const TensorBase& new_data) const;
  TensorBase data() const;
  int64_t _version() const;
  void retain_grad() const;
  bool retains_grad() const;
  const TensorBase& requires_grad_(bool _requires_grad = true) const;
  bool is_view() const;
  const std::string& name() const;

 protected:
  std::shared_ptr<void> impl_;
};

} // namespace at
