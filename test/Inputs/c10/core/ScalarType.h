// Mock of <c10/core/ScalarType.h>.
#pragma once

#include <cstdint>

#include <c10/macros/Macros.h>

namespace c10 {

enum class ScalarType : int8_t {
  Byte,
  Char,
  Short,
  Int,
  Long,
  Half,
  Float,
  Double,
  ComplexHalf,
  ComplexFloat,
  ComplexDouble,
  Bool,
  QInt8,
  QUInt8,
  QInt32,
  BFloat16,
  Undefined,
  NumOptions
};

constexpr ScalarType kByte = ScalarType::Byte;
constexpr ScalarType kChar = ScalarType::Char;
constexpr ScalarType kShort = ScalarType::Short;
constexpr ScalarType kInt = ScalarType::Int;
constexpr ScalarType kLong = ScalarType::Long;
constexpr ScalarType kHalf = ScalarType::Half;
constexpr ScalarType kFloat = ScalarType::Float;
constexpr ScalarType kDouble = ScalarType::Double;
constexpr ScalarType kComplexHalf = ScalarType::ComplexHalf;
constexpr ScalarType kComplexFloat = ScalarType::ComplexFloat;
constexpr ScalarType kComplexDouble = ScalarType::ComplexDouble;
constexpr ScalarType kBool = ScalarType::Bool;
constexpr ScalarType kQInt8 = ScalarType::QInt8;
constexpr ScalarType kQUInt8 = ScalarType::QUInt8;
constexpr ScalarType kQInt32 = ScalarType::QInt32;
constexpr ScalarType kBFloat16 = ScalarType::BFloat16;

} // namespace c10
