// A metrics class declared here, defined in the test that includes it, and
// called by callers.cpp: that unit's summaries say what its calls pass.
#include <torch/torch.h>
#include <string>
#include <vector>

class RunningMetrics {
public:
  void add_loss(const torch::Tensor &loss);
  void add_output(const torch::Tensor &output);
  void add_number(const torch::Tensor &value);
  void add_clean(const torch::Tensor &loss);

private:
  std::vector<torch::Tensor> losses_;
  std::vector<torch::Tensor> outputs_;
  std::vector<torch::Tensor> numbers_;
  std::vector<torch::Tensor> clean_;
  torch::Tensor total_ = torch::zeros({});
};

// A rollout whose steps a method defined in the test gathers and returns;
// callers.cpp reads only numbers from one result and trains on the other.
class Rollout {
public:
  std::vector<torch::Tensor> values(torch::nn::Linear &critic,
                                    const std::vector<torch::Tensor> &states);
  std::vector<torch::Tensor> log_probs(torch::nn::Linear &actor,
                                       const std::vector<torch::Tensor> &states);
};
