#include <torch/torch.h>
torch::Tensor score(torch::nn::Linear &model, const torch::Tensor &x) {
  return model(x).sum();
}
void accumulate(torch::Tensor &total, const torch::Tensor &external) {
  for (int i = 0; i < 3; ++i)
    total += external;
}
