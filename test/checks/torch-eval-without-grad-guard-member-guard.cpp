// RUN: %check_torch_tidy %s torch-eval-without-grad-guard %t

// A class that holds a NoGradGuard as a member (a serving wrapper whose
// first member stops gradient recording) turns grad mode off for as long as
// an object of it lives: its methods run the model with the guard active.
// The same wrapper without the member records a graph on every call.

#include <torch/torch.h>
#include <torch/script.h>
#include <string>
#include <vector>

class Upscaler {
  torch::NoGradGuard no_grad;
  torch::jit::script::Module module;

public:
  explicit Upscaler(const std::string &path) : module(torch::jit::load(path)) {
    module.eval();
  }
  std::vector<float> run(const std::vector<torch::Tensor> &blocks) {
    std::vector<float> out;
    for (const auto &block : blocks)
      out.push_back(module.forward({block.unsqueeze(0)}).toTensor().mean().item<float>());
    return out;
  }
};

class UnguardedUpscaler {
  torch::jit::script::Module module;

public:
  explicit UnguardedUpscaler(const std::string &path) : module(torch::jit::load(path)) {
    module.eval();
  }
  std::vector<float> run(const std::vector<torch::Tensor> &blocks) {
    std::vector<float> out;
    for (const auto &block : blocks)
      out.push_back(module.forward({block.unsqueeze(0)}).toTensor().mean().item<float>());
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode
    // CHECK-FIXES: torch::NoGradGuard no_grad;
    return out;
  }
};

size_t serveGuarded(const std::vector<torch::Tensor> &blocks) {
  Upscaler guarded("esrgan.pt");
  return guarded.run(blocks).size();
}

size_t servePlain(const std::vector<torch::Tensor> &blocks) {
  UnguardedUpscaler plain("esrgan.pt");
  return plain.run(blocks).size();
}

// While a guarded wrapper lives, its guard covers the code around it too.
size_t serveBoth(const std::vector<torch::Tensor> &blocks, torch::nn::Linear &head) {
  Upscaler guarded("esrgan.pt");
  auto scores = guarded.run(blocks);
  return scores.size() + static_cast<size_t>(head(blocks.front()).argmax().item<int64_t>());
}
