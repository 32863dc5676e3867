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
