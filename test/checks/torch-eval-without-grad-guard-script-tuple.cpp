// RUN: %check_torch_tidy %s torch-eval-without-grad-guard %t

// A TorchScript module's output taken apart as a tuple
// (`module.forward(inputs).toTuple()`, then `outputs->elements()[0]
// .toTensor()`): what is computed from the elements is computed from the
// tuple. A force kernel that differentiates the energy element is no
// evaluation code (quiet); a detector that reads its boxes and scores only
// as numbers is (flagged).

#include <torch/script.h>
#include <torch/torch.h>
#include <vector>

struct ForceKernel {
  torch::jit::script::Module module;
  bool outputsForces = false;

  double execute(const std::vector<double> &positions, std::vector<double> &forces) {
    torch::Tensor pos = torch::tensor(positions).reshape({-1, 3}).requires_grad_(true);
    std::vector<torch::jit::IValue> inputs = {pos};
    torch::Tensor energy, force;
    if (outputsForces) {
      auto outputs = module.forward(inputs).toTuple();
      energy = outputs->elements()[0].toTensor();
      force = outputs->elements()[1].toTensor();
    } else {
      energy = module.forward(inputs).toTensor();
      energy.backward();
      force = -pos.grad();
    }
    if (!outputsForces || forces.empty())
      energy.backward();
    for (int64_t i = 0; i < force.numel(); ++i)
      forces[i] = force.reshape({-1})[i].item<double>();
    return energy.item<double>();
  }
};

struct Detector {
  torch::jit::script::Module module;

  std::vector<float> scores(const std::vector<torch::Tensor> &frames) {
    std::vector<float> best;
    for (const torch::Tensor &frame : frames) {
      std::vector<torch::jit::IValue> inputs = {frame};
      auto outputs = module.forward(inputs).toTuple();
      // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: the model runs forward in evaluation code
      torch::Tensor boxes = outputs->elements()[0].toTensor();
      torch::Tensor conf = outputs->elements()[1].toTensor();
      best.push_back(conf.max().item<float>() + boxes.numel() * 0.f);
    }
    return best;
  }
};
// CHECK-FIXES: {{^}}  std::vector<float> scores(const std::vector<torch::Tensor> &frames) {
// CHECK-FIXES-NEXT: {{^}}    torch::NoGradGuard no_grad;{{$}}
