#include <torch/torch.h>
#include <memory>
#include <unordered_map>
#include <utility>

struct PolicyNetImpl : torch::nn::Module {
  torch::nn::Linear fc{4, 2};
  std::pair<torch::Tensor, torch::Tensor> forward(torch::Tensor input);
};
TORCH_MODULE(PolicyNet);

// A learner that is no module: its virtual predict runs the network (body
// in learner.cpp), and an override may run another body.
class Learner {
public:
  virtual ~Learner() = default;
  virtual std::pair<torch::Tensor, torch::Tensor> predict(torch::Tensor state);
  PolicyNet net;
};

struct Node {
  torch::Tensor state;
};
