// Mock of <c10/core/Scalar.h>.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <type_traits>

#include <c10/core/ScalarType.h>
#include <c10/macros/Macros.h>

namespace c10 {

class C10_API Scalar {
 public:
  Scalar() : Scalar(int64_t(0)) {}
  ~Scalar() {}
  Scalar(const Scalar& rhs) : tag(rhs.tag), d(rhs.d), i(rhs.i) {}
  Scalar(Scalar&& rhs) noexcept : tag(rhs.tag), d(rhs.d), i(rhs.i) {}
  Scalar& operator=(const Scalar& rhs) {
    tag = rhs.tag;
    d = rhs.d;
    i = rhs.i;
    return *this;
  }
  Scalar& operator=(Scalar&& rhs) noexcept { return *this = rhs; }

  // AT_FORALL_SCALAR_TYPES(DEFINE_IMPLICIT_CTOR) (Half/BFloat16/complex
  // omitted).
  Scalar(uint8_t vv) : Scalar(vv, true) {}
  Scalar(int8_t vv) : Scalar(vv, true) {}
  Scalar(int16_t vv) : Scalar(vv, true) {}
  Scalar(int vv) : Scalar(vv, true) {}
  Scalar(int64_t vv) : Scalar(vv, true) {}
  Scalar(float vv) : Scalar(vv, true) {}
  Scalar(double vv) : Scalar(vv, true) {}

  // Dedicated bool constructor, templated to avoid pointer -> bool decay.
  template <
      typename T,
      typename std::enable_if<std::is_same<T, bool>::value, bool>::type* =
          nullptr>
  Scalar(T vv) : tag(Tag::HAS_b), d(0), i(vv) {}

  uint8_t toByte() const { return static_cast<uint8_t>(toLong()); }
  int8_t toChar() const { return static_cast<int8_t>(toLong()); }
  int16_t toShort() const { return static_cast<int16_t>(toLong()); }
  int toInt() const { return static_cast<int>(toLong()); }
  int64_t toLong() const { return tag == Tag::HAS_d ? static_cast<int64_t>(d) : i; }
  float toFloat() const { return static_cast<float>(toDouble()); }
  double toDouble() const { return tag == Tag::HAS_d ? d : static_cast<double>(i); }
  bool toBool() const { return tag == Tag::HAS_d ? d != 0 : i != 0; }

  template <typename T>
  T to() const = delete;

  bool isFloatingPoint() const { return tag == Tag::HAS_d; }
  bool isIntegral(bool includeBool) const {
    return tag == Tag::HAS_i || (includeBool && isBoolean());
  }
  bool isComplex() const { return false; }
  bool isBoolean() const { return tag == Tag::HAS_b; }
  ScalarType type() const;
  Scalar operator-() const;
  bool equal(bool num) const;

 private:
  enum class Tag { HAS_d, HAS_i, HAS_z, HAS_b, HAS_sd, HAS_si };

  template <
      typename T,
      typename std::enable_if<std::is_integral<T>::value, bool>::type* =
          nullptr>
  Scalar(T vv, bool) : tag(Tag::HAS_i), d(0), i(static_cast<int64_t>(vv)) {}
  template <
      typename T,
      typename std::enable_if<std::is_floating_point<T>::value, bool>::type* =
          nullptr>
  Scalar(T vv, bool) : tag(Tag::HAS_d), d(static_cast<double>(vv)), i(0) {}

  Tag tag;
  double d;
  int64_t i;
};

template <> inline uint8_t Scalar::to<uint8_t>() const { return toByte(); }
template <> inline int8_t Scalar::to<int8_t>() const { return toChar(); }
template <> inline int16_t Scalar::to<int16_t>() const { return toShort(); }
template <> inline int Scalar::to<int>() const { return toInt(); }
template <> inline int64_t Scalar::to<int64_t>() const { return toLong(); }
template <> inline float Scalar::to<float>() const { return toFloat(); }
template <> inline double Scalar::to<double>() const { return toDouble(); }
template <> inline bool Scalar::to<bool>() const { return toBool(); }

C10_API std::ostream& operator<<(std::ostream& out, const Scalar& s);
C10_API std::string toString(const Scalar& s);

} // namespace c10
