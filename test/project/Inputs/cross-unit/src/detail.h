// How a batch's error is measured; only model.cpp includes it.
#include <torch/torch.h>

inline torch::Tensor squared_error(const torch::Tensor &t) { return t.pow(2); }
