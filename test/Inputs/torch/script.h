// Mock of <torch/script.h>. The real one does not include <torch/torch.h>
// (only types.h, the autograd guards and the jit headers); this mock
// includes it for convenience, plus what the real one adds on top of it.
#pragma once

#include <torch/torch.h>

#include <ATen/core/ivalue.h>
#include <torch/csrc/autograd/InferenceMode.h>
#include <torch/csrc/autograd/grad_mode.h>
#include <torch/csrc/jit/api/module.h>
#include <torch/csrc/jit/serialization/import.h>
