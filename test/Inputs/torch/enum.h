// Mock of <torch/enum.h>: the enumtype tags used by options (torch::kMean,
// torch::kSum, ...). Real 1.13 uses c10::variant; here std::variant.
#pragma once

#include <variant>

#include <c10/macros/Macros.h>

#define TORCH_ENUM_DECLARE(name) \
  namespace torch {              \
  namespace enumtype {           \
  struct k##name {               \
    k##name() {}                 \
  };                             \
  }                              \
  TORCH_API extern const enumtype::k##name k##name; \
  }

TORCH_ENUM_DECLARE(Linear)
TORCH_ENUM_DECLARE(Conv1D)
TORCH_ENUM_DECLARE(Conv2D)
TORCH_ENUM_DECLARE(Conv3D)
TORCH_ENUM_DECLARE(ConvTranspose1D)
TORCH_ENUM_DECLARE(ConvTranspose2D)
TORCH_ENUM_DECLARE(ConvTranspose3D)
TORCH_ENUM_DECLARE(Sigmoid)
TORCH_ENUM_DECLARE(Tanh)
TORCH_ENUM_DECLARE(ReLU)
TORCH_ENUM_DECLARE(GELU)
TORCH_ENUM_DECLARE(LeakyReLU)
TORCH_ENUM_DECLARE(FanIn)
TORCH_ENUM_DECLARE(FanOut)
TORCH_ENUM_DECLARE(Constant)
TORCH_ENUM_DECLARE(Reflect)
TORCH_ENUM_DECLARE(Replicate)
TORCH_ENUM_DECLARE(Circular)
TORCH_ENUM_DECLARE(Nearest)
TORCH_ENUM_DECLARE(Bilinear)
TORCH_ENUM_DECLARE(Mean)
TORCH_ENUM_DECLARE(Max)
TORCH_ENUM_DECLARE(None)
TORCH_ENUM_DECLARE(BatchMean)
TORCH_ENUM_DECLARE(Zeros)
TORCH_ENUM_DECLARE(Border)
TORCH_ENUM_DECLARE(Reflection)
TORCH_ENUM_DECLARE(RNN_TANH)
TORCH_ENUM_DECLARE(RNN_RELU)
TORCH_ENUM_DECLARE(LSTM)
TORCH_ENUM_DECLARE(GRU)
TORCH_ENUM_DECLARE(Valid)
TORCH_ENUM_DECLARE(Same)
TORCH_ENUM_DECLARE(Sum)
TORCH_ENUM_DECLARE(Area)
TORCH_ENUM_DECLARE(Bicubic)
TORCH_ENUM_DECLARE(Mish)
TORCH_ENUM_DECLARE(NearestExact)
TORCH_ENUM_DECLARE(SiLU)
TORCH_ENUM_DECLARE(Trilinear)
