// Mock of <torch/types.h> (torch/csrc/api/include/torch/types.h).
#pragma once

#include <ATen/ATen.h>
#include <c10/util/Optional.h>
#include <torch/csrc/autograd/generated/variable_factories.h>
#include <torch/csrc/autograd/variable.h>

namespace torch {

// Everything in `at::` (and through it `c10::`) is reachable as `torch::`:
// e.g. torch::Tensor, torch::kFloat, torch::relu, torch::NoGradGuard's target
// and torch::InferenceMode (== c10::InferenceMode) all resolve this way.
using namespace at; // NOLINT

using c10::nullopt;
using c10::optional;

using Dtype = at::ScalarType;

constexpr auto kUInt8 = at::kByte;
constexpr auto kInt8 = at::kChar;
constexpr auto kInt16 = at::kShort;
constexpr auto kInt32 = at::kInt;
constexpr auto kInt64 = at::kLong;
constexpr auto kFloat16 = at::kHalf;
constexpr auto kFloat32 = at::kFloat;
constexpr auto kFloat64 = at::kDouble;

constexpr auto kU8 = kUInt8;
constexpr auto kI8 = kInt8;
constexpr auto kI16 = kInt16;
constexpr auto kI32 = kInt32;
constexpr auto kI64 = kInt64;
constexpr auto kF16 = kFloat16;
constexpr auto kF32 = kFloat32;
constexpr auto kF64 = kFloat64;

} // namespace torch
