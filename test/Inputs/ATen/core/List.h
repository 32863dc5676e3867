// Mock of <ATen/core/List.h>: c10::List<T>, whose iterators hand out
// element references that convert to T (as a range-based for over a
// TorchScript module's list output sees them).
#pragma once

#include <cstddef>
#include <vector>

namespace c10 {
namespace impl {
template <class T>
class ListElementReference final {
public:
  operator T() const { return *element_; }
  ListElementReference &operator=(T new_value) && {
    *element_ = std::move(new_value);
    return *this;
  }
  explicit ListElementReference(T *element) : element_(element) {}

private:
  T *element_;
};

template <class T>
class ListIterator final {
public:
  explicit ListIterator(T *at) : at_(at) {}
  ListElementReference<T> operator*() const { return ListElementReference<T>(at_); }
  ListIterator &operator++() {
    ++at_;
    return *this;
  }
  bool operator!=(const ListIterator &other) const { return at_ != other.at_; }

private:
  T *at_;
};
} // namespace impl

template <class T>
class List final {
public:
  using iterator = impl::ListIterator<T>;
  List() = default;
  size_t size() const { return elements_.size(); }
  T get(size_t pos) const { return elements_[pos]; }
  impl::ListElementReference<T> operator[](size_t pos) const {
    return impl::ListElementReference<T>(const_cast<T *>(&elements_[pos]));
  }
  iterator begin() const { return iterator(const_cast<T *>(elements_.data())); }
  iterator end() const {
    return iterator(const_cast<T *>(elements_.data() + elements_.size()));
  }
  void push_back(T value) { elements_.push_back(std::move(value)); }
  std::vector<T> vec() const { return elements_; }

private:
  std::vector<T> elements_;
};
} // namespace c10
