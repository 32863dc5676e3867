// The findings here depend on the bodies of the helpers in helpers.h.
#include "helpers.h"
#include <vector>

void train(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs) {
  torch::Tensor total = torch::zeros({});
  torch::Tensor safe = torch::zeros({});
  for (const auto &x : xs) {
    total += score(model, x);         // flagged: score() runs the model
    safe += detached_score(model, x); // not flagged: detached_score() detaches
  }
}
