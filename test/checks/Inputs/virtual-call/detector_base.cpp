#include "detector.h"

int DetectorBase::detect(const torch::Tensor &image) {
  auto features = backbone(image);
  decode(features);
  return static_cast<int>(features.size(0));
}
