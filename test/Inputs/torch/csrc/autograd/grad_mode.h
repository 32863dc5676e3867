// Mock of <torch/csrc/autograd/grad_mode.h>.
#pragma once

#include <ATen/core/grad_mode.h>

namespace torch {
namespace autograd {

using GradMode = at::GradMode;
using AutoGradMode = at::AutoGradMode;

} // namespace autograd
} // namespace torch
