// The unit that instantiates the template of
// torch-eval-without-grad-guard-template-called-elsewhere.cpp, with a guard.
#include "torch-eval-without-grad-guard-template-called-elsewhere.cpp"
#include <vector>

float run(Net &net, const std::vector<torch::Tensor> &data) {
  torch::NoGradGuard no_grad;
  return evaluate_all(net, data);
}
