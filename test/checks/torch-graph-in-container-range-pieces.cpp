// RUN: %check_torch_tidy %s torch-graph-in-container %t

// A range-based for over the outputs of one forward pass hands out pieces
// of a graph made before the loop: gathering them adds no graph per
// iteration, whatever the caller does with the result. A loop whose range
// is made afresh by an enclosing loop is judged against that loop.

#include <torch/torch.h>
#include <torch/script.h>
#include <vector>

// The backbone's feature levels, split into a vector for the caller.
std::vector<at::Tensor> features(torch::jit::script::Module &backbone, const torch::Tensor &x) {
  c10::List<at::Tensor> levels = backbone.forward({x}).toTensorList();
  std::vector<at::Tensor> outputs;
  for (auto &&level : levels)
    outputs.emplace_back(level);
  return outputs;
}

std::vector<at::Tensor> heads(torch::nn::Linear &model, const torch::Tensor &x) {
  std::vector<at::Tensor> parts = model(x).chunk(4);
  std::vector<at::Tensor> kept;
  for (const auto &part : parts)
    kept.push_back(part);
  return kept;
}

int64_t featureDims(torch::jit::script::Module &backbone, torch::nn::Linear &model,
                    const torch::Tensor &x) {
  return features(backbone, x)[0].size(1) + heads(model, x)[0].size(0);
}

// Each frame's forward is new: the levels gathered across frames keep
// every frame's graph.
std::vector<at::Tensor> allFrames(torch::jit::script::Module &backbone,
                                  const std::vector<torch::Tensor> &frames) {
  std::vector<at::Tensor> gathered;
  for (const auto &frame : frames) {
    c10::List<at::Tensor> levels = backbone.forward({frame}).toTensorList();
    for (auto &&level : levels)
      gathered.emplace_back(level);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'gathered' outlives the iteration and each time a tensor that carries autograd history is stored in it
  }
  return gathered;
}

int64_t frameCount(torch::jit::script::Module &backbone,
                   const std::vector<torch::Tensor> &frames) {
  return static_cast<int64_t>(allFrames(backbone, frames).size());
}
