#include "sampler.h"

// The one caller of decode_all: the whole request runs with grad mode off.
int64_t serve(Sampler &sampler, const std::vector<torch::Tensor> &request) {
  torch::NoGradGuard no_grad;
  return decode_all(sampler, request);
}
