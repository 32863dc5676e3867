// Mock of <torch/csrc/autograd/variable.h>.
#pragma once

#include <ATen/ATen.h>

namespace torch {
namespace autograd {

/// `Variable` is exactly the same as `Tensor`.
using Variable = at::Tensor;

} // namespace autograd
} // namespace torch
