// torch-graph-accumulation on a data member: a trainer that keeps a running
// loss across calls of step().
#include "common.h"

class Trainer {
public:
  explicit Trainer(torch::Device device)
      : device_(device), optimizer_(model_->parameters(), 0.01) {
    model_->to(device_);
    running_loss_ = torch::zeros({}, torch::TensorOptions().device(device_));
  }

  void step(const torch::Tensor &x, const torch::Tensor &y) {
    optimizer_.zero_grad();
    torch::Tensor loss = torch::mse_loss(model_->forward(x), y);
    loss.backward();
    optimizer_.step();
    running_loss_ += loss;
  }

  double running_loss() const { return running_loss_.item<double>(); }

private:
  torch::Device device_;
  Net model_;
  torch::optim::SGD optimizer_;
  torch::Tensor running_loss_;
};

int main() {
  torch::manual_seed(0);
  torch::Device device = pickDevice();
  Trainer trainer(device);
  torch::Tensor x = torch::randn({64, 32}).to(device), y = torch::randn({64, 1}).to(device);
  for (int step = 0; step < 1000; ++step)
    trainer.step(x, y);
  return trainer.running_loss() > 0 ? 0 : 1;
}
