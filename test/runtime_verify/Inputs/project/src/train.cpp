// A project's training program: its model in include/ (found through -I),
// its data in common/ (included by a relative path), compiled from build/
// with relative paths, as the compile database says.
#include "model.h"
#include "../common/data.h"

int main() {
  torch::manual_seed(0);
  Model model;
  torch::optim::SGD optimizer(model->parameters(), 0.01);
  Batch batch = makeBatch();
  torch::Tensor total = torch::zeros({});
  for (int step = 0; step < STEPS; ++step) {
    optimizer.zero_grad();
    torch::Tensor loss = torch::mse_loss(model->forward(batch.x), batch.y);
    loss.backward();
    optimizer.step();
    total = total + loss;
  }
  return total.item<double>() > 0 ? 0 : 1;
}
