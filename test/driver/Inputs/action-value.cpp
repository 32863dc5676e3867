#include <torch/torch.h>
#include <tuple>
std::tuple<torch::Tensor, torch::Tensor> get_action_and_value(torch::nn::Linear &actor, torch::nn::Linear &critic, const torch::Tensor &x) {
  return {actor(x), critic(x)};
}
