#include "loop.h"

double run(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs) {
  return train_loop(model, xs);
}
