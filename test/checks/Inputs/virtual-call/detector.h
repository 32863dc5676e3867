// A detector whose base class runs the backbone and hands its features to a
// virtual method that each detector overrides.
#pragma once
#include <torch/torch.h>
#include <cstdint>
#include <vector>

class DetectorBase {
public:
  virtual ~DetectorBase() = default;
  int detect(const torch::Tensor &image); // detector_base.cpp

protected:
  virtual void decode(const torch::Tensor &features) = 0;
  torch::nn::Linear backbone{4, 8};
};

class CachingDetector : public DetectorBase {
protected:
  void decode(const torch::Tensor &features) override;

private:
  std::vector<torch::Tensor> levels_;
  std::vector<int64_t> sizes_;
};
