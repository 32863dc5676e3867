// Mock of <c10/util/ArrayRef.h>.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <type_traits>
#include <utility>
#include <vector>

#include <c10/macros/Macros.h>
#include <c10/util/Optional.h>

namespace c10 {

template <typename T>
class ArrayRef final {
 public:
  using iterator = const T*;
  using const_iterator = const T*;
  using size_type = size_t;
  using value_type = T;

  constexpr ArrayRef() : Data(nullptr), Length(0) {}
  constexpr ArrayRef(const T& OneElt) : Data(&OneElt), Length(1) {}
  constexpr ArrayRef(const T* data, size_t length)
      : Data(data), Length(length) {}
  template <typename A>
  ArrayRef(const std::vector<T, A>& Vec)
      : Data(Vec.data()), Length(Vec.size()) {}
  template <size_t N>
  constexpr ArrayRef(const std::array<T, N>& Arr) : Data(Arr.data()), Length(N) {}
  template <size_t N>
  constexpr ArrayRef(const T (&Arr)[N]) : Data(Arr), Length(N) {}
  constexpr ArrayRef(const std::initializer_list<T>& Vec)
      : Data(Vec.begin() == Vec.end() ? static_cast<T*>(nullptr) : Vec.begin()),
        Length(Vec.size()) {}

  constexpr iterator begin() const { return Data; }
  constexpr iterator end() const { return Data + Length; }
  constexpr bool empty() const { return Length == 0; }
  constexpr const T* data() const { return Data; }
  constexpr size_t size() const { return Length; }
  constexpr const T& operator[](size_t Index) const { return Data[Index]; }
  std::vector<T> vec() const { return std::vector<T>(Data, Data + Length); }

 private:
  const T* Data;
  size_type Length;
};

using IntArrayRef = ArrayRef<int64_t>;

// Real 1.13 OptionalArrayRef is a richer class; this keeps its conversions
// (nullopt, anything an ArrayRef<T> is constructible from).
template <typename T>
class OptionalArrayRef final {
 public:
  constexpr OptionalArrayRef() noexcept = default;
  constexpr OptionalArrayRef(nullopt_t) noexcept {}
  template <
      typename U = ArrayRef<T>,
      typename = std::enable_if_t<
          !std::is_same<std::decay_t<U>, OptionalArrayRef>::value &&
          !std::is_same<std::decay_t<U>, nullopt_t>::value &&
          std::is_constructible<ArrayRef<T>, U&&>::value>>
  constexpr OptionalArrayRef(U&& value) : wrapped_opt_array_ref(ArrayRef<T>(std::forward<U>(value))) {}
  constexpr OptionalArrayRef(const std::initializer_list<T>& Vec)
      : wrapped_opt_array_ref(ArrayRef<T>(Vec)) {}
  constexpr bool has_value() const noexcept { return wrapped_opt_array_ref.has_value(); }
  constexpr ArrayRef<T> value() const { return *wrapped_opt_array_ref; }

 private:
  optional<ArrayRef<T>> wrapped_opt_array_ref;
};

using OptionalIntArrayRef = OptionalArrayRef<int64_t>;

} // namespace c10

namespace at {
using c10::ArrayRef;
using c10::IntArrayRef;
using c10::OptionalIntArrayRef;
} // namespace at

#include <ostream>

namespace c10 {
template <typename T>
std::ostream& operator<<(std::ostream& out, ArrayRef<T> list) {
  int i = 0;
  out << "[";
  for (const auto& e : list) {
    if (i++ > 0)
      out << ", ";
    out << e;
  }
  out << "]";
  return out;
}
} // namespace c10
