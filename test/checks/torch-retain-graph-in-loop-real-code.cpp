// Backward passes with retain_graph=true in the loops of real code: a graph
// built before the loop and walked by every iteration must be retained; a
// graph built in the iteration need not be.
// RUN: %check_torch_tidy %s torch-retain-graph-in-loop %t
// RUN: %check_torch_tidy --std=c++20 %s torch-retain-graph-in-loop %t.cxx20

#include <torch/torch.h>
#include <map>
#include <string>
#include <vector>

// ---- Flagged ----------------------------------------------------------------

// An actor-critic update: each iteration runs its own forward, and the last
// backward pass over it keeps the graph for nothing.
void update_each_step(torch::nn::Linear &actor, torch::nn::Linear &critic,
                      const std::vector<torch::Tensor> &states, torch::optim::Adam &optimizer) {
  for (const auto &state : states) {
    auto value_loss = critic(state).pow(2).mean();
    value_loss.backward({}, /*retain_graph=*/true);
    auto entropy = -actor(state).softmax(-1).log().mean();
    entropy.backward({}, /*retain_graph=*/true);
    // CHECK-MESSAGES: :[[@LINE-1]]:43: warning: retain_graph=true in a loop keeps the autograd graph
    // CHECK-FIXES: entropy.backward({});
    optimizer.step();
  }
}

// Losses returned by a helper as a struct of tensors: the helper's forward
// runs in each iteration, so each iteration's graph is its own.
struct PhysicsLosses {
  torch::Tensor pde;
  torch::Tensor boundary;
  torch::Tensor total() const { return pde + boundary; }
};

PhysicsLosses physics_losses(torch::nn::Linear &net, const torch::Tensor &x) {
  auto u = net(x);
  return {u.pow(2).mean(), u.abs().mean()};
}

void fit_physics(torch::nn::Linear &net, const torch::Tensor &x,
                 torch::optim::SGD &optimizer) {
  for (int epoch = 0; epoch < 100; ++epoch) {
    optimizer.zero_grad();
    PhysicsLosses losses = physics_losses(net, x);
    losses.total().backward({}, /*retain_graph=*/true);
    // CHECK-MESSAGES: :[[@LINE-1]]:50: warning: retain_graph=true in a loop keeps the autograd graph
    // CHECK-FIXES: losses.total().backward({});
    optimizer.step();
  }
}

// The losses built by a constructor that runs the forward (through a
// method of its own), in a closure called each epoch: each iteration's
// graph is its own.
struct BeamLosses {
  torch::Tensor physics, total;
  BeamLosses() = default;
  BeamLosses(torch::nn::Linear &net, const torch::Tensor &x) {
    physics_loss(net, x);
    total = 2.0 * physics;
  }
  void physics_loss(torch::nn::Linear &net, const torch::Tensor &x) {
    physics = net(x).pow(2).mean();
  }
  static BeamLosses compute(torch::nn::Linear &net, const torch::Tensor &x) {
    return BeamLosses(net, x);
  }
};

void fit_beam(torch::nn::Linear &net, const torch::Tensor &x,
              torch::optim::SGD &optimizer) {
  for (int epoch = 0; epoch < 100; ++epoch) {
    BeamLosses losses{};
    auto closure = [&]() -> torch::Tensor {
      optimizer.zero_grad();
      losses = BeamLosses::compute(net, x);
      auto loss = losses.total;
      loss.backward({}, /*retain_graph=*/true);
      // CHECK-MESSAGES: :[[@LINE-1]]:42: warning: retain_graph=true in a loop keeps the autograd graph
      // CHECK-FIXES: loss.backward({});
      return loss;
    };
    closure();
    optimizer.step();
  }
}

// ---- Not flagged ------------------------------------------------------------

// One forward feeds every task's loss; each task's backward pass needs the
// shared graph retained for the next task's.
void multi_task(torch::nn::Linear &encoder, const torch::Tensor &x,
                const std::map<std::string, torch::Tensor> &targets,
                torch::optim::SGD &optimizer) {
  auto features = encoder(x);
  for (const auto &[task, target] : targets) {
    auto loss = torch::mse_loss(features.sum(1), target);
    loss.backward({}, /*retain_graph=*/true);
  }
  optimizer.step();
}

// A Jacobian taken row by row, and second derivatives of a first-order
// gradient computed once: every iteration walks the graph built before it.
std::vector<torch::Tensor> jacobian_rows(torch::nn::Linear &model, const torch::Tensor &x) {
  auto psi = model(x);
  std::vector<torch::Tensor> rows;
  for (int64_t i = 0; i < psi.size(0); ++i) {
    auto row = torch::autograd::grad({psi[i].sum()}, model->parameters(), {},
                                     /*retain_graph=*/true);
    rows.push_back(row[0].detach());
  }
  return rows;
}

torch::Tensor laplacian(torch::nn::Linear &model, const torch::Tensor &inputs) {
  auto w = model(inputs).sum();
  auto dw_dx = torch::autograd::grad({w}, {inputs}, {}, /*retain_graph=*/true,
                                     /*create_graph=*/true)[0];
  torch::Tensor total = torch::zeros({});
  for (int64_t j = 0; j < inputs.size(1); ++j) {
    auto column = dw_dx.select(1, j).sum();
    auto d2 = torch::autograd::grad({column}, {inputs}, {}, /*retain_graph=*/true,
                                    /*create_graph=*/true)[0];
    total = total + d2.select(1, j).sum().detach();
  }
  return total;
}
