// RUN: %check_torch_tidy %s torch-eval-without-grad-guard %t

// A function template runs as the unit's instantiations of it do: a forward
// in its pattern is guarded when every instantiation is called only where a
// guard is active (here through another template, from a main that holds
// torch::NoGradGuard). In the pattern itself the calls on dependent values
// are not resolved, so the pattern has no callers of its own.

#include <torch/torch.h>
#include <tuple>
#include <utility>

struct VaeImpl : torch::nn::Module {
  torch::nn::Sequential dec{torch::nn::Linear(4, 4)};
  torch::nn::Sequential &decoder();
  std::tuple<torch::Tensor, torch::Tensor, torch::Tensor> predict(torch::Tensor x);
};
TORCH_MODULE(Vae);

void save(const torch::Tensor &t);

template <typename Dataset>
std::pair<torch::Tensor, torch::Tensor> morph_(Vae &model, const Dataset &data) {
  torch::Tensor z, mu, log_var;
  std::tie(z, mu, log_var) = model->predict(data);
  torch::Tensor images = torch::empty({10, 4});
  for (int i = 0; i < 10; ++i) {
    auto out = model->decoder()->forward(z[i]);
    images[i] = out.squeeze();
  }
  return {data, images};
}

template <typename Dataset>
void morph(Vae &model, const Dataset &data) {
  torch::Tensor originals, changed;
  std::tie(originals, changed) = morph_(model, data);
  save(originals);
  save(changed);
}

// The same shape, instantiated from a caller with no guard: one finding,
// at the function's first forward (the one out of view, in the
// instantiation), for the pattern and its instantiation together, with one
// guard.
template <typename Dataset>
std::pair<torch::Tensor, torch::Tensor> sample_(Vae &model, const Dataset &data) {
  // CHECK-FIXES: {{^}}  torch::NoGradGuard no_grad;{{$}}
  torch::Tensor z, mu, log_var;
  std::tie(z, mu, log_var) = model->predict(data);
  // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode
  torch::Tensor images = torch::empty({10, 4});
  for (int i = 0; i < 10; ++i) {
    auto out = model->decoder()->forward(z[i]);
    images[i] = out.squeeze();
  }
  return {data, images};
}

void sample_all(Vae &model, const torch::Tensor &data) {
  model->eval();
  for (int k = 0; k < 3; ++k) {
    auto result = sample_(model, data);
    save(result.second);
  }
}

int main() {
  Vae model;
  model->eval();
  torch::Tensor data = torch::randn({10, 4});
  {
    torch::NoGradGuard no_grad{};
    morph(model, data);
  }
  sample_all(model, data);
  return 0;
}
