// A detector whose base class runs a traced backbone and hands its output,
// a TorchScript value, to a virtual method that each detector overrides.
#pragma once
#include <torch/script.h>
#include <torch/torch.h>
#include <memory>
#include <vector>

class TracedDetector {
public:
  virtual ~TracedDetector() = default;
  int detect(const torch::Tensor &image); // traced_detector.cpp

protected:
  virtual void decode(const c10::IValue &output) = 0;
  std::unique_ptr<torch::jit::script::Module> backbone_;
};

class LevelDetector : public TracedDetector {
protected:
  void decode(const c10::IValue &output) override;

private:
  void split_levels(const c10::IValue &output);
  torch::Tensor scores_;
  std::vector<torch::Tensor> levels_;
};
