#include <torch/torch.h>
#include <memory>

// An analytic distribution: no module, no parameter.
class Distribution {
public:
  virtual ~Distribution() = default;
  virtual torch::Tensor sample(int n) const = 0;
  virtual torch::Tensor log_prob(torch::Tensor x) const = 0;
};
class UniformDistribution : public Distribution {
public:
  torch::Tensor sample(int n) const override;
  torch::Tensor log_prob(torch::Tensor x) const override;
};

// A module with no parameter that draws from it, and one that pads the
// draws: bodies in sampler.cpp.
class Sampler : public torch::nn::Module {
public:
  explicit Sampler(std::shared_ptr<Distribution> prior);
  virtual torch::Tensor log_prob(torch::Tensor x) const;
  virtual torch::Tensor forward(int n) const;

protected:
  std::shared_ptr<Distribution> prior;
};
class PaddedSampler : public Sampler {
public:
  using Sampler::Sampler;
  torch::Tensor forward(int n) const override;
};

struct FlowImpl : torch::nn::Module {
  torch::nn::Linear layer{2, 2};
  torch::Tensor forward(const torch::Tensor &x) { return layer(x); }
};
TORCH_MODULE(Flow);
