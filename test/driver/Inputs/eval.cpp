#include <torch/torch.h>
torch::Tensor score(torch::nn::Linear &model, const torch::Tensor &x) {
  return model(x).sum();
}
torch::Tensor total;
void accumulate(const torch::Tensor &external) {
  for (int i = 0; i < 3; ++i)
    total += external;
}
