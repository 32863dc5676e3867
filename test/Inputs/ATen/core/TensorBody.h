// Mock of <ATen/core/TensorBody.h>: at::Tensor with the 1.13 signatures of
// the methods user code typically calls. Most methods are declared only (the
// real ones dispatch into libtorch); the mocks are for -fsyntax-only use.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <iosfwd>
#include <ostream>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <ATen/core/Generator.h>
#include <ATen/core/TensorBase.h>
#include <c10/core/Device.h>
#include <c10/core/MemoryFormat.h>
#include <c10/core/Scalar.h>
#include <c10/core/ScalarType.h>
#include <c10/core/TensorOptions.h>
#include <c10/macros/Macros.h>
#include <c10/util/ArrayRef.h>
#include <c10/util/Optional.h>

namespace at {
namespace indexing {
struct TensorIndex;
} // namespace indexing
} // namespace at

namespace torch {
namespace autograd {
struct Node;
} // namespace autograd
} // namespace torch

namespace at {

class Tensor;
using TensorList = ArrayRef<Tensor>;

class TORCH_API Tensor : public TensorBase {
 public:
  Tensor() = default;
  Tensor(const Tensor& tensor) = default;
  Tensor(Tensor&& tensor) = default;

  // Implicitly move-constructible from TensorBase, but must be explicit to
  // increase refcount.
  explicit Tensor(const TensorBase& base) : TensorBase(base) {}
  /*implicit*/ Tensor(TensorBase&& base) : TensorBase(std::move(base)) {}

  Tensor contiguous(MemoryFormat memory_format = MemoryFormat::Contiguous) const {
    return Tensor(TensorBase::contiguous(memory_format));
  }

  Tensor conj() const;

  Tensor& operator=(const TensorBase& x) & {
    impl_ = x.getIntrusivePtr();
    return *this;
  }
  Tensor& operator=(TensorBase&& x) & noexcept {
    impl_ = x.getIntrusivePtr();
    x.reset();
    return *this;
  }
  Tensor& operator=(const Tensor& x) & {
    return operator=(static_cast<const TensorBase&>(x));
  }
  Tensor& operator=(Tensor&& x) & {
    return operator=(static_cast<TensorBase&&>(x));
  }

  Tensor& operator=(Scalar v) && { return fill_(v); }
  Tensor& operator=(const Tensor& rhs) && { return copy_(rhs); }
  Tensor& operator=(Tensor&& rhs) && { return copy_(rhs); }

  Tensor toType(ScalarType t) const {
    return to(options().dtype(t), /*non_blocking*/ false, /*copy*/ false);
  }

  template <typename T>
  T* data() const {
    return data_ptr<T>();
  }

  // Declared only, as in the real header (specialized in libtorch).
  template <typename T>
  T item() const;

  Tensor operator~() const;
  Tensor operator-() const { return neg(); }
  Tensor& operator+=(const Tensor& other) { return add_(other); }
  Tensor& operator+=(Scalar other) { return add_(other); }
  Tensor& operator-=(const Tensor& other) { return sub_(other); }
  Tensor& operator-=(Scalar other) { return sub_(other); }
  Tensor& operator*=(const Tensor& other) { return mul_(other); }
  Tensor& operator*=(Scalar other) { return mul_(other); }
  Tensor& operator/=(const Tensor& other) { return div_(other); }
  Tensor& operator/=(Scalar other) { return div_(other); }
  Tensor& operator&=(const Tensor& other);
  Tensor& operator|=(const Tensor& other);
  Tensor& operator^=(const Tensor& other);
  Tensor operator[](Scalar index) const {
    return this->operator[](index.toLong());
  }
  Tensor operator[](Tensor index) const {
    return this->operator[](index.item());
  }
  Tensor operator[](int64_t index) const { return select(0, index); }

  Tensor index(ArrayRef<at::indexing::TensorIndex> indices) const;
  Tensor index(std::initializer_list<at::indexing::TensorIndex> indices) const;

  Tensor& index_copy_(int64_t dim, const Tensor& index, const Tensor& source) const;
  Tensor& index_add_(int64_t dim, const Tensor& index, const Tensor& source, const Scalar& alpha = 1) const;
  Tensor& index_put_(ArrayRef<at::indexing::TensorIndex> indices, Tensor const& rhs);
  Tensor& index_put_(ArrayRef<at::indexing::TensorIndex> indices, const Scalar& v);
  Tensor& index_put_(std::initializer_list<at::indexing::TensorIndex> indices, Tensor const& rhs);
  Tensor& index_put_(std::initializer_list<at::indexing::TensorIndex> indices, const Scalar& v);

  Tensor cpu() const {
    return to(options().device(DeviceType::CPU), /*non_blocking*/ false, /*copy*/ false);
  }
  Tensor cuda() const {
    return to(options().device(DeviceType::CUDA), /*non_blocking*/ false, /*copy*/ false);
  }

  void backward(const Tensor & gradient={}, c10::optional<bool> retain_graph=c10::nullopt, bool create_graph=false, c10::optional<TensorList> inputs=c10::nullopt) const {
    if (inputs.has_value()) {
      this->_backward(inputs.value(), gradient, retain_graph, create_graph);
    } else {
      this->_backward({}, gradient, retain_graph, create_graph);
    }
  }

  const Tensor& set_requires_grad(bool requires_grad) const {
    TensorBase::set_requires_grad(requires_grad);
    return *this;
  }

  Tensor& mutable_grad() const;
  const Tensor& grad() const;

  template <typename T>
  void register_hook(T&& hook) const {
    (void)hook;
  }
  void remove_hook(unsigned pos) const;

  // Variable methods
  Tensor data() const { return Tensor(TensorBase::data()); }

  void _backward(TensorList inputs, const c10::optional<Tensor>& gradient, c10::optional<bool> keep_graph, bool create_graph) const;

  const Tensor& requires_grad_(bool _requires_grad=true) const {
    TensorBase::requires_grad_(_requires_grad);
    return *this;
  }

  // Generated methods (subset of TensorBody.h), 1.13 signatures.
  at::Tensor abs() const;
  at::Tensor & abs_() const;
  at::Tensor neg() const;
  at::Tensor & neg_() const;
  at::Tensor add(const at::Tensor & other, const at::Scalar & alpha=1) const;
  at::Tensor & add_(const at::Tensor & other, const at::Scalar & alpha=1) const;
  at::Tensor add(const at::Scalar & other, const at::Scalar & alpha=1) const;
  at::Tensor & add_(const at::Scalar & other, const at::Scalar & alpha=1) const;
  at::Tensor sub(const at::Tensor & other, const at::Scalar & alpha=1) const;
  at::Tensor & sub_(const at::Tensor & other, const at::Scalar & alpha=1) const;
  at::Tensor sub(const at::Scalar & other, const at::Scalar & alpha=1) const;
  at::Tensor & sub_(const at::Scalar & other, const at::Scalar & alpha=1) const;
  at::Tensor mul(const at::Tensor & other) const;
  at::Tensor & mul_(const at::Tensor & other) const;
  at::Tensor mul(const at::Scalar & other) const;
  at::Tensor & mul_(const at::Scalar & other) const;
  at::Tensor div(const at::Tensor & other) const;
  at::Tensor & div_(const at::Tensor & other) const;
  at::Tensor div(const at::Scalar & other) const;
  at::Tensor & div_(const at::Scalar & other) const;
  at::Tensor remainder(const at::Scalar & other) const;
  at::Tensor remainder(const at::Tensor & other) const;
  at::Tensor & remainder_(const at::Scalar & other) const;
  at::Tensor & remainder_(const at::Tensor & other) const;
  at::Tensor bitwise_not() const;
  at::Tensor bitwise_and(const at::Scalar & other) const;
  at::Tensor bitwise_and(const at::Tensor & other) const;
  at::Tensor bitwise_or(const at::Scalar & other) const;
  at::Tensor bitwise_or(const at::Tensor & other) const;
  at::Tensor bitwise_xor(const at::Scalar & other) const;
  at::Tensor bitwise_xor(const at::Tensor & other) const;
  at::Tensor logical_not() const;
  at::Tensor logical_and(const at::Tensor & other) const;
  at::Tensor logical_or(const at::Tensor & other) const;
  at::Tensor all() const;
  at::Tensor any() const;
  at::Tensor argmax(c10::optional<int64_t> dim=c10::nullopt, bool keepdim=false) const;
  at::Tensor argmin(c10::optional<int64_t> dim=c10::nullopt, bool keepdim=false) const;
  at::Tensor & copy_(const at::Tensor & src, bool non_blocking=false) const;
  at::Tensor exp() const;
  at::Tensor & exp_() const;
  at::Tensor log() const;
  at::Tensor & log_() const;
  at::Tensor sqrt() const;
  at::Tensor & sqrt_() const;
  at::Tensor square() const;
  at::Tensor sigmoid() const;
  at::Tensor & sigmoid_() const;
  at::Tensor tanh() const;
  at::Tensor & tanh_() const;
  at::Tensor relu() const;
  at::Tensor & relu_() const;
  at::Tensor softmax(int64_t dim, c10::optional<at::ScalarType> dtype=c10::nullopt) const;
  at::Tensor log_softmax(int64_t dim, c10::optional<at::ScalarType> dtype=c10::nullopt) const;
  at::Tensor multinomial(int64_t num_samples, bool replacement=false, c10::optional<at::Generator> generator=c10::nullopt) const;
  at::Tensor flatten(int64_t start_dim=0, int64_t end_dim=-1) const;
  at::Tensor & fill_(const at::Scalar & value) const;
  at::Tensor & fill_(const at::Tensor & value) const;
  at::Tensor matmul(const at::Tensor & other) const;
  at::Tensor mm(const at::Tensor & mat2) const;
  ::std::tuple<at::Tensor,at::Tensor> max(int64_t dim, bool keepdim=false) const;
  ::std::tuple<at::Tensor,at::Tensor> topk(int64_t k, int64_t dim=-1, bool largest=true, bool sorted=true) const;
  ::std::tuple<at::Tensor,at::Tensor> sort(int64_t dim=-1, bool descending=false) const;
  ::std::tuple<at::Tensor,at::Tensor> min(int64_t dim, bool keepdim=false) const;
  at::Tensor mean(c10::optional<at::ScalarType> dtype=c10::nullopt) const;
  at::Tensor mean(at::OptionalIntArrayRef dim, bool keepdim=false, c10::optional<at::ScalarType> dtype=c10::nullopt) const;
  at::Tensor median() const;
  at::Tensor std(bool unbiased=true) const;
  at::Tensor var(bool unbiased=true) const;
  at::Tensor narrow(int64_t dim, int64_t start, int64_t length) const;
  at::Tensor permute(at::IntArrayRef dims) const;
  at::Tensor repeat(at::IntArrayRef repeats) const;
  at::Tensor reshape(at::IntArrayRef shape) const;
  at::Tensor select(int64_t dim, int64_t index) const;
  std::vector<at::Tensor> unbind(int64_t dim = 0) const;
  at::Tensor detach() const;
  at::Tensor & detach_() const;
  at::Tensor slice(int64_t dim=0, c10::optional<int64_t> start=c10::nullopt, c10::optional<int64_t> end=c10::nullopt, int64_t step=1) const;
  ::std::vector<at::Tensor> split(int64_t split_size, int64_t dim=0) const;
  ::std::vector<at::Tensor> chunk(int64_t chunks, int64_t dim=0) const;
  at::Tensor squeeze() const;
  at::Tensor squeeze(int64_t dim) const;
  at::Tensor & squeeze_() const;
  at::Tensor sum(c10::optional<at::ScalarType> dtype=c10::nullopt) const;
  at::Tensor sum(at::OptionalIntArrayRef dim, bool keepdim=false, c10::optional<at::ScalarType> dtype=c10::nullopt) const;
  at::Tensor t() const;
  at::Tensor transpose(int64_t dim0, int64_t dim1) const;
  at::Tensor unsqueeze(int64_t dim) const;
  at::Tensor & unsqueeze_(int64_t dim) const;
  at::Tensor norm(const at::Scalar & p=2) const;
  at::Tensor clone(c10::optional<at::MemoryFormat> memory_format=c10::nullopt) const;
  at::Tensor & zero_() const;
  at::Tensor to(at::TensorOptions options={}, bool non_blocking=false, bool copy=false, c10::optional<at::MemoryFormat> memory_format=c10::nullopt) const;
  at::Tensor to(at::Device device, at::ScalarType dtype, bool non_blocking=false, bool copy=false, c10::optional<at::MemoryFormat> memory_format=c10::nullopt) const;
  at::Tensor to(at::ScalarType dtype, bool non_blocking=false, bool copy=false, c10::optional<at::MemoryFormat> memory_format=c10::nullopt) const;
  at::Tensor to(const at::Tensor & other, bool non_blocking=false, bool copy=false, c10::optional<at::MemoryFormat> memory_format=c10::nullopt) const;
  at::Scalar item() const;
  at::Tensor view(at::IntArrayRef size) const;
  at::Tensor view(at::ScalarType dtype) const;
  at::Tensor view_as(const at::Tensor & other) const;
  at::Tensor expand(at::IntArrayRef size, bool implicit=false) const;
  at::Tensor expand_as(const at::Tensor & other) const;
  at::Tensor type_as(const at::Tensor & other) const;
  at::Tensor new_zeros(at::IntArrayRef size, at::TensorOptions options={}) const;
  at::Tensor masked_fill(const at::Tensor & mask, const at::Scalar & value) const;
  at::Tensor & masked_fill_(const at::Tensor & mask, const at::Scalar & value) const;
  at::Tensor gather(int64_t dim, const at::Tensor & index, bool sparse_grad=false) const;
  at::Tensor index_select(int64_t dim, const at::Tensor & index) const;
  at::Tensor ne(const at::Scalar & other) const;
  at::Tensor ne(const at::Tensor & other) const;
  at::Tensor eq(const at::Scalar & other) const;
  at::Tensor eq(const at::Tensor & other) const;
  at::Tensor ge(const at::Scalar & other) const;
  at::Tensor ge(const at::Tensor & other) const;
  at::Tensor le(const at::Scalar & other) const;
  at::Tensor le(const at::Tensor & other) const;
  at::Tensor gt(const at::Scalar & other) const;
  at::Tensor gt(const at::Tensor & other) const;
  at::Tensor lt(const at::Scalar & other) const;
  at::Tensor lt(const at::Tensor & other) const;
  at::Tensor min() const;
  at::Tensor max() const;
  at::Tensor max(const at::Tensor & other) const;
  at::Tensor min(const at::Tensor & other) const;
  at::Tensor pow(const at::Tensor & exponent) const;
  at::Tensor pow(const at::Scalar & exponent) const;
  at::Tensor & pow_(const at::Scalar & exponent) const;
  at::Tensor clamp(const c10::optional<at::Scalar> & min, const c10::optional<at::Scalar> & max=c10::nullopt) const;
  at::Tensor & clamp_(const c10::optional<at::Scalar> & min, const c10::optional<at::Scalar> & max=c10::nullopt) const;
  at::Tensor & uniform_(double from=0, double to=1, c10::optional<at::Generator> generator=c10::nullopt) const;
  at::Tensor & normal_(double mean=0, double std=1, c10::optional<at::Generator> generator=c10::nullopt) const;
  at::Tensor & bernoulli_(double p=0.5, c10::optional<at::Generator> generator=c10::nullopt) const;
  bool equal(const at::Tensor & other) const;
  bool is_nonzero() const;
  bool allclose(const at::Tensor & other, double rtol=1e-05, double atol=1e-08, bool equal_nan=false) const;
};

// Real: ATen/core/Formatting.h.
static inline std::ostream& operator<<(std::ostream& out, const Tensor& t) {
  t.print();
  return out;
}

} // namespace at

namespace at {

inline const Tensor& Tensor::grad() const {
  static Tensor undefined;
  return undefined;
}

inline Tensor& Tensor::mutable_grad() const {
  static Tensor undefined;
  return undefined;
}

} // namespace at
