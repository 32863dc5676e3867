// Mock of <torch/utils.h> (torch/csrc/api/include/torch/utils.h).
#pragma once

#include <cstdint>

#include <torch/csrc/autograd/grad_mode.h>
#include <torch/types.h>

namespace torch {

/// A RAII, thread-local guard that disabled gradient calculation.
using NoGradGuard = at::NoGradGuard;

/// A RAII, thread-local guard that sets gradient calculation to on or off.
using AutoGradMode = at::AutoGradMode;

/// Sets the global random seed for all newly created CPU and CUDA tensors.
using at::manual_seed;

using at::init_num_threads;
using at::get_num_threads;
using at::set_num_threads;
using at::get_num_interop_threads;
using at::set_num_interop_threads;

// Returns true if both t1, t2 are undefined or both are defined and equal
inline bool equal_if_defined(Tensor t1, Tensor t2) {
  return (
      (!t1.defined() && !t2.defined()) ||
      (t1.defined() && t2.defined() && torch::equal(t1, t2)));
}

} // namespace torch
