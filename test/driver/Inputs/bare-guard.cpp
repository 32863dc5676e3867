#include <torch/torch.h>

// Evaluation whose guard is only named: clang builds nothing for it.
double evaluate(torch::nn::Linear &model, const torch::Tensor &x) {
  model->eval();
  torch::NoGradGuard;
  return model(x).sum().item<double>();
}
