#pragma once
#include <torch/script.h>
#include <torch/torch.h>

// A serving library's wrapper: its callers are in files of the project that
// are not analysed (a ROS node that does not build here).
class Segmenter {
public:
  explicit Segmenter(const std::string &path);
  at::Tensor get_output(at::Tensor input);

private:
  torch::jit::script::Module module_;
  bool aux_ = false;
};
