// Mock of <ATen/core/ivalue.h>: c10::IValue (also at::IValue and
// torch::jit::IValue) with the commonly used constructors and accessors.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <ATen/core/List.h>
#include <ATen/core/TensorBody.h>
#include <c10/util/intrusive_ptr.h>

namespace c10 {

struct IValue;

namespace ivalue {
struct Tuple;
struct Object;
} // namespace ivalue

struct TORCH_API IValue final {
  IValue(const IValue& rhs) = default;
  IValue(IValue&& rhs) noexcept = default;
  IValue& operator=(IValue&& rhs) & noexcept = default;
  IValue& operator=(IValue const& rhs) & = default;
  ~IValue() {}

  IValue() : tag(Tag::None) {}

  // Tensor
  IValue(at::TensorBase t) : tensor_(std::move(t)), tag(Tag::Tensor) {}
  bool isTensor() const { return Tag::Tensor == tag; }
  at::Tensor toTensor() &&;
  at::Tensor& toTensor() &;
  const at::Tensor& toTensor() const&;

  // Tuple
  IValue(c10::intrusive_ptr<ivalue::Tuple> v);
  template <typename... Args>
  IValue(const std::tuple<Args...>& t);
  bool isTuple() const { return Tag::Tuple == tag; }
  c10::intrusive_ptr<ivalue::Tuple> toTuple() &&;
  c10::intrusive_ptr<ivalue::Tuple> toTuple() const&;
  const ivalue::Tuple& toTupleRef() const;

  // Double
  IValue(double d) : tag(Tag::Double) { (void)d; }
  bool isDouble() const { return Tag::Double == tag; }
  double toDouble() const;

  // Int
  IValue(int64_t i) : tag(Tag::Int) { (void)i; }
  IValue(int32_t i) : IValue(static_cast<int64_t>(i)) {}
  bool isInt() const { return Tag::Int == tag; }
  int64_t toInt() const;

  // Bool
  IValue(bool b) : tag(Tag::Bool) { (void)b; }
  bool isBool() const { return Tag::Bool == tag; }
  bool toBool() const;

  // String
  IValue(std::string v);
  IValue(const char* v) : IValue(std::string(v)) {}
  bool isString() const { return Tag::String == tag; }
  const std::string& toStringRef() const;

  // Lists (the real 1.13 returns c10::List<T> from toList()/toTensorList()).
  template <class T>
  IValue(const std::vector<T>& v);
  bool isList() const { return Tag::GenericList == tag; }
  bool isTensorList() const;
  std::vector<at::Tensor> toTensorVector() const;
  c10::List<at::Tensor> toTensorList() const;

  // None
  IValue(c10::nullopt_t) : IValue() {}
  bool isNone() const { return Tag::None == tag; }

  // Object / Module
  IValue(c10::intrusive_ptr<ivalue::Object> v);
  bool isObject() const { return tag == Tag::Object; }
  bool isModule() const;

  std::string tagKind() const;

 private:
  enum class Tag : uint32_t {
    None,
    Tensor,
    Double,
    Int,
    Bool,
    Tuple,
    String,
    GenericList,
    Object
  };
  at::Tensor tensor_;
  Tag tag;
};

namespace ivalue {

// As in the real headers: a tuple's elements are a struct of its own (a
// vector, or up to three inline values), not a container template.
struct TORCH_API TupleElements {
  using iterator = IValue*;
  using const_iterator = const IValue*;
  size_t size() const { return elements_.size(); }
  const IValue& operator[](size_t idx) const { return elements_[idx]; }
  IValue& operator[](size_t idx) { return elements_[idx]; }
  const IValue& at(size_t idx) const { return elements_.at(idx); }
  const_iterator begin() const { return elements_.data(); }
  const_iterator end() const { return elements_.data() + elements_.size(); }
  std::vector<IValue> vec() const& { return elements_; }

 private:
  std::vector<IValue> elements_;
};

struct TORCH_API Tuple {
  const TupleElements& elements() const& { return elements_; }
  TupleElements elements() && { return std::move(elements_); }
  size_t size() const { return elements_.size(); }

  static c10::intrusive_ptr<Tuple> create(std::vector<IValue> elements_);

 private:
  TupleElements elements_;
};

struct TORCH_API Object {};

} // namespace ivalue

TORCH_API std::ostream& operator<<(std::ostream& out, const IValue& v);

} // namespace c10

namespace torch {
namespace jit {
using c10::IValue;
using Stack = std::vector<c10::IValue>;
} // namespace jit
} // namespace torch
