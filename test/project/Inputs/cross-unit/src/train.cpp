#include "model.h"
#include <vector>

std::vector<torch::Tensor> logged;

void train(Trainer &trainer, const std::vector<torch::Tensor> &batches) {
  torch::Tensor total = torch::zeros({});
  for (const auto &x : batches) {
    total = total + trainer.batch_loss(x);
    logged.push_back(trainer.summary_of(trainer.net(x)));
  }
}
