// Mock of <torch/csrc/autograd/InferenceMode.h>. As in the real LibTorch,
// this header is reached from <torch/script.h>, not from <torch/torch.h>.
#pragma once

#include <c10/core/InferenceMode.h>

namespace torch {
namespace autograd {

using InferenceMode = c10::InferenceMode;

}
} // namespace torch
