// RUN: %check_torch_tidy %s torch-eval-without-grad-guard %t

// A class whose constructor turns grad mode off for its thread and leaves
// it off (an inference wrapper that calls GradMode::set_enabled(false)
// before loading its model) runs its methods with grad mode off: no graph
// is recorded. A constructor that turns it back on before it returns does
// not, and its method records a graph on every call.

#include <torch/torch.h>
#include <torch/script.h>
#include <string>
#include <vector>

class ImageAlign {
  torch::jit::script::Module net;

public:
  explicit ImageAlign(const std::string &path) {
    torch::autograd::GradMode::set_enabled(false);
    net = torch::jit::load(path);
    net.eval();
  }
  int64_t pred(const torch::Tensor &eo, const torch::Tensor &ir) {
    return net.forward({eo, ir}).toTensor().argmax().item<int64_t>();
  }
};

class WarmedAlign {
  torch::jit::script::Module net;

public:
  explicit WarmedAlign(const std::string &path) {
    torch::autograd::GradMode::set_enabled(false);
    net = torch::jit::load(path);
    net.eval();
    torch::autograd::GradMode::set_enabled(true);
  }
  int64_t pred(const torch::Tensor &eo, const torch::Tensor &ir) {
    return net.forward({eo, ir}).toTensor().argmax().item<int64_t>();
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode
    // CHECK-FIXES: torch::NoGradGuard no_grad;
  }
};

int64_t alignFrames(const std::vector<torch::Tensor> &eo,
                    const std::vector<torch::Tensor> &ir) {
  ImageAlign align("semla.pt");
  WarmedAlign warmed("semla.pt");
  int64_t sum = 0;
  for (size_t i = 0; i < eo.size(); ++i)
    sum += align.pred(eo[i], ir[i]) + warmed.pred(eo[i], ir[i]);
  return sum;
}
