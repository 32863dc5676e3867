#include "sampler.h"

int64_t Sampler::greedy(const torch::Tensor x) {
  int64_t last = 0;
  for (int step = 0; step < 4; ++step) {
    torch::Tensor out = net(x);
    last = out.argmax(1).item<int64_t>();
  }
  return last;
}

double Sampler::score(const torch::Tensor &x) {
  double total = 0;
  for (int batch = 0; batch < 4; ++batch) {
    torch::Tensor out = net(x);
    total += out.mean().item<double>();
  }
  return total;
}

int64_t Sampler::decode(const torch::Tensor &x) {
  torch::Tensor out = net(x);
  return out.argmax(1).item<int64_t>();
}
