#include "losses.h"
#include "metrics.h"
#include <vector>

void log_losses(torch::nn::Linear &model, DetectionLoss &criterion,
                RunningMetrics &metrics, const std::vector<torch::Tensor> &xs) {
  torch::Tensor running = torch::zeros({});
  torch::Tensor errors = torch::zeros({});
  for (const auto &x : xs) {
    auto [loss, parts] = criterion->forward(model(x), x);
    running = running + parts;
    errors += squared_error(model(x), x);
    metrics.add_loss(loss);
    metrics.add_number(parts);
  }
}
