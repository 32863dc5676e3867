#pragma once
#include <torch/torch.h>

struct Batch {
  torch::Tensor x, y;
};

inline Batch makeBatch() { return {torch::randn({32, 16}), torch::randn({32, 1})}; }
