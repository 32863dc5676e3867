#pragma once
#include <torch/script.h>
#include <torch/torch.h>

// A streaming pipeline's stages: one is run through its base class by code
// that no file of the project has; another is deprecated and called by
// nothing.
struct Stage {
  virtual ~Stage() = default;
  virtual at::Tensor pop(const at::Tensor &frame) = 0;
};

struct FeatureStage : Stage {
  torch::jit::script::Module transform;
  at::Tensor pop(const at::Tensor &frame) override;
  at::Tensor project(const at::Tensor &frame);
};
