// A unit of a project that also trains: a backward pass and an optimizer
// step, in code that never names the wrapper.
#include <torch/torch.h>

void fit(torch::nn::Linear &net, torch::optim::SGD &opt, const torch::Tensor &x) {
  opt.zero_grad();
  net->forward(x).sum().backward();
  opt.step();
}
