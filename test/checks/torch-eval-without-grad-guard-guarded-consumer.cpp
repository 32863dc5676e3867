// RUN: %check_torch_tidy %s torch-eval-without-grad-guard %t

// A backbone's outputs consumed only by code that runs under a guard (an
// anomaly model's embedding) or read as sizes: nothing can differentiate
// them, whatever the model's own caller does with the guarded result, so
// the backbone records its graph for nothing. The same outputs handed to an
// embedding computed with grad mode on go back to the model's caller, who
// decides.

#include <torch/torch.h>
#include <torch/script.h>
#include <memory>
#include <tuple>
#include <vector>

class FeatureExtractor {
public:
  std::vector<at::Tensor> forward(const torch::Tensor &x) {
    c10::List<at::Tensor> preds = backbone.forward({x}).toTensorList();
    // CHECK-MESSAGES: :[[@LINE-1]]:35: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode
    // CHECK-FIXES: torch::NoGradGuard no_grad;
    std::vector<at::Tensor> outputs;
    for (auto &&level : preds)
      outputs.emplace_back(level);
    return outputs;
  }
  std::tuple<int64_t, int64_t> dims() {
    auto preds = forward(torch::ones({1, 3, 64, 64}));
    return {preds[0].size(1), preds[0].size(2) * preds[0].size(3)};
  }
  torch::jit::script::Module backbone;
};

struct AnomalyModelImpl : torch::nn::Module {
  torch::Tensor embed(const std::vector<torch::Tensor> &features) {
    torch::NoGradGuard no_grad;
    auto embedding = features[0];
    for (size_t i = 1; i < features.size(); ++i)
      embedding = torch::cat({embedding, features[i]}, 1);
    return embedding.index_select(1, idx);
  }
  torch::Tensor forward(const torch::Tensor &x) {
    auto preds = extractor->forward(x);
    std::vector<at::Tensor> features;
    for (auto &&level : preds)
      features.emplace_back(level.to(torch::kCPU));
    auto embedding = embed(features);
    max_val.copy_(torch::max(max_val, torch::max(embedding)));
    return embedding;
  }
  std::shared_ptr<FeatureExtractor> extractor;
  torch::Tensor idx, max_val;
};
TORCH_MODULE(AnomalyModel);

// Trained: the head's embedding keeps the backbone's graph, and the caller
// of the model's forward decides.
class TrainableExtractor {
public:
  std::vector<at::Tensor> forward(const torch::Tensor &x) {
    c10::List<at::Tensor> preds = backbone.forward({x}).toTensorList();
    std::vector<at::Tensor> outputs;
    for (auto &&level : preds)
      outputs.emplace_back(level);
    return outputs;
  }
  torch::jit::script::Module backbone;
};

struct HeadImpl : torch::nn::Module {
  torch::Tensor forward(const torch::Tensor &x) {
    auto preds = extractor->forward(x);
    return proj(torch::cat(preds, 1).mean({2, 3}));
  }
  std::shared_ptr<TrainableExtractor> extractor;
  torch::nn::Linear proj{8, 2};
};
TORCH_MODULE(Head);
