// Extra seed: constructs the checks handle that the test files use little.
#include <torch/torch.h>
#include <map>
#include <vector>

struct NetImpl : torch::nn::Module {
  NetImpl() : fc(register_module("fc", torch::nn::Linear(4, 1))) {}
  torch::Tensor forward(const torch::Tensor &x) { return fc(x); }
  torch::nn::Linear fc;
};
TORCH_MODULE(Net);

std::vector<torch::Tensor> history;
std::map<int, torch::Tensor> by_step;

template <typename M> torch::Tensor predict_all(M &model, torch::Tensor x) {
  torch::AutoGradMode(false);
  auto lambda = [&](int i) { return model(x * i); };
  return lambda(2);
}

void train(Net &model, torch::Tensor x) {
  torch::Tensor h = torch::zeros({4});
  torch::Tensor total;
  for (int i = 0; i < 10; ++i) {
    {
      torch::NoGradGuard guard;
      history.push_back(model(x));
    }
    auto out = model(x);
    by_step[i] = out;
    h = 0.9 * h + 0.1 * out;
    total = torch::cat({total, out});
    out.sum().backward({}, true);
    do { total.add_(out); } while (false);
  }
  while (true) {
    c10::InferenceMode{};
    break;
  }
  (void)predict_all(model, x);
}
