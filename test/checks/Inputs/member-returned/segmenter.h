#pragma once
#include <torch/torch.h>
#include <torch/script.h>

// An image segmenter in the shape of a SAM predictor: the image encoder's
// embedding is kept in a private member, and `segment` runs the mask
// decoder on it for each prompt, returning the masks.
class Segmenter {
public:
  Segmenter(const std::string &encoder, const std::string &decoder);
  void setImage(const torch::Tensor &image);
  torch::Tensor segment(const torch::Tensor &points);

private:
  torch::jit::script::Module encoder_, decoder_;
  torch::Tensor features_;
};
