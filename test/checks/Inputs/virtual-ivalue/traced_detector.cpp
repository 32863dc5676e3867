#include "traced_detector.h"

int TracedDetector::detect(const torch::Tensor &image) {
  c10::IValue output = backbone_->forward({image});
  decode(output);
  return 0;
}
