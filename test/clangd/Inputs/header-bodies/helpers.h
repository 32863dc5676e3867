// The project's own helpers, defined in a header that train.cpp includes
// first: in torch-clangd they are part of the preamble.
#pragma once
#include <torch/torch.h>

// Its body runs the model, so what it returns carries autograd history.
inline torch::Tensor score(torch::nn::Linear &model, const torch::Tensor &x) {
  return model(x).sum();
}

// Its body cuts the graph.
inline torch::Tensor detached_score(torch::nn::Linear &model,
                                    const torch::Tensor &x) {
  return model(x).sum().detach();
}
