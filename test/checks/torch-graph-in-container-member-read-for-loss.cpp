// RUN: %check_torch_tidy %s torch-graph-in-container %t

// A module's forward that gathers each level's output into a member, which
// another method clears before running it and builds the loss from: the
// backward pass walks what the member holds, and the clear bounds it to one
// step's outputs (quiet). The same member read only as numbers holds every
// graph until the reset for nothing (flagged).

#include <torch/torch.h>
#include <vector>

struct PyramidImpl : torch::nn::Module {
  PyramidImpl()
      : a(register_module("a", torch::nn::Linear(4, 4))),
        b(register_module("b", torch::nn::Linear(4, 4))) {}
  torch::Tensor forward(torch::Tensor x) {
    x = a(x);
    levels.push_back(x);
    x = b(x);
    levels.push_back(x);
    return x;
  }
  torch::Tensor levelLoss(const torch::Tensor &input) {
    levels.clear();
    forward(input);
    torch::Tensor loss = torch::zeros({});
    for (const torch::Tensor &level : levels)
      loss = loss + level.pow(2).mean();
    return loss;
  }
  torch::nn::Linear a{nullptr}, b{nullptr};
  std::vector<torch::Tensor> levels;
};
TORCH_MODULE(Pyramid);

void fit(Pyramid &net, const std::vector<torch::Tensor> &batches) {
  torch::optim::SGD optimizer(net->parameters(), 0.01);
  for (const torch::Tensor &batch : batches) {
    optimizer.zero_grad();
    torch::Tensor loss = net->levelLoss(batch);
    loss.backward();
    optimizer.step();
  }
}

struct MonitorImpl : torch::nn::Module {
  MonitorImpl() : a(register_module("a", torch::nn::Linear(4, 4))) {}
  torch::Tensor forward(torch::Tensor x) {
    x = a(x);
    seen.push_back(x);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'seen' outlives the call
    // CHECK-FIXES: {{^}}    seen.push_back(x.detach());{{$}}
    return x;
  }
  double level(const torch::Tensor &input) {
    seen.clear();
    forward(input);
    double total = 0;
    for (const torch::Tensor &t : seen)
      total += t.mean().item<double>();
    return total;
  }
  torch::nn::Linear a{nullptr};
  std::vector<torch::Tensor> seen;
};
TORCH_MODULE(Monitor);

double watch(Monitor &net, const std::vector<torch::Tensor> &batches) {
  double sum = 0;
  for (const torch::Tensor &batch : batches)
    sum += net->level(batch);
  return sum;
}
