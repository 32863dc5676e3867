// Findings made inside macro expansions: where torch-tidy prints them and
// where torch-clangd shows them must agree.
#include <torch/torch.h>
#include <vector>

#define KEEP(list, value) list.push_back(value)
#define RUN(m, x) m(x)
#define TOTAL(m, x) m(x).sum().item<float>()
#define TWICE(m, x) RUN(m, x) + RUN(m, x)

// The forward is written in an argument: both at the argument.
void forward_in_an_argument(torch::nn::Linear &model, const torch::Tensor &x) {
  std::vector<torch::Tensor> outputs;
  for (int i = 0; i < 10; ++i) {
    KEEP(outputs, model(x));
  }
}

// The forward is the macro's whole body: both at the invocation.
float forward_is_the_body(torch::nn::Linear &model, const torch::Tensor &x) {
  float s = 0;
  for (int i = 0; i < 10; ++i)
    s += RUN(model, x).sum().item<float>();
  return s;
}

// The forward starts the body and more follows it.
float forward_starts_the_body(torch::nn::Linear &model, const torch::Tensor &x) {
  float s = 0;
  for (int i = 0; i < 10; ++i)
    s += TOTAL(model, x);
  return s;
}

// The forward comes from a macro used in another macro's body.
torch::Tensor nested(torch::nn::Linear &model, const torch::Tensor &x) {
  torch::Tensor total = torch::zeros({});
  for (int i = 0; i < 10; ++i)
    total += TWICE(model, x);
  return total.detach();
}
