// An optimizer step taken once every N iterations, and whether the loss
// backpropagated every iteration (or the gradients) is divided by N.
// RUN: %analysis_dump %s -- %mock_torch | sort -t: -k1,1n | FileCheck %s -implicit-check-not=window= -implicit-check-not=scaled=

#include <torch/torch.h>
#include <vector>

void probe_window(const torch::Tensor &);
void probe_scaled();

torch::Tensor scaled_loss(const torch::Tensor &out, int steps); // elsewhere

struct Config {
  int accumulation = 4;
};

void windows(torch::nn::Linear &model, torch::optim::SGD &opt,
             const std::vector<torch::Tensor> &xs, int accum, const Config &cfg) {
  for (size_t i = 0; i < xs.size(); ++i) {
    model(xs[i]).sum().backward();
    if ((i + 1) % accum == 0)
      // CHECK: [[@LINE+1]]:7: window=accum
      probe_window(opt.step());
  }
  for (size_t i = 0; i < xs.size(); ++i) {
    model(xs[i]).sum().backward();
    if ((i + 1) % cfg.accumulation == 0 || i + 1 == xs.size()) {
      // CHECK: [[@LINE+1]]:7: window=cfg.accumulation
      probe_window(opt.step());
      opt.zero_grad();
    }
  }
  for (size_t i = 0; i < xs.size(); ++i) {
    model(xs[i]).sum().backward();
    if (!(i % 8))
      // CHECK: [[@LINE+1]]:7: window=8
      probe_window(opt.step());
  }
  // A counter that counts to N and starts again.
  int micro = 0;
  for (const auto &x : xs) {
    model(x).sum().backward();
    if (++micro == accum) {
      // CHECK: [[@LINE+1]]:7: window=accum
      probe_window(opt.step());
      micro = 0;
    }
  }
  // Not a window: every other condition, a counter never reset, N = 1.
  for (size_t i = 0; i < xs.size(); ++i) {
    model(xs[i]).sum().backward();
    if (xs[i].defined())
      // CHECK: [[@LINE+1]]:7: window=none
      probe_window(opt.step());
    if (i == 10)
      // CHECK: [[@LINE+1]]:7: window=none
      probe_window(opt.step());
    if (i % 1 == 0)
      // CHECK: [[@LINE+1]]:7: window=none
      probe_window(opt.step());
  }
}

void scaling(torch::nn::Linear &model, torch::optim::SGD &opt,
             const std::vector<torch::Tensor> &xs, int accum, const Config &cfg) {
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = model(xs[i]).sum();
    // CHECK: [[@LINE+2]]:5: scaled=no
    loss.backward();
    probe_scaled();
    if ((i + 1) % accum == 0)
      opt.step();
  }
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = model(xs[i]).sum() / accum;
    // CHECK: [[@LINE+2]]:5: scaled=yes
    loss.backward();
    probe_scaled();
    if ((i + 1) % accum == 0)
      opt.step();
  }
  // By a local equal to N, cast; in place; by a product with N as factor.
  const double steps = accum;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = model(xs[i]).sum();
    // CHECK: [[@LINE+2]]:5: scaled=yes
    (loss / static_cast<float>(steps)).backward();
    probe_scaled();
    if ((i + 1) % accum == 0)
      opt.step();
  }
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = model(xs[i]).sum();
    loss /= cfg.accumulation;
    // CHECK: [[@LINE+2]]:5: scaled=yes
    loss.backward();
    probe_scaled();
    if ((i + 1) % cfg.accumulation == 0)
      opt.step();
  }
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = model(xs[i]).mean() * (1.0 / (4 * xs.size()));
    // CHECK: [[@LINE+2]]:5: scaled=yes
    loss.backward();
    probe_scaled();
    if ((i + 1) % 4 == 0)
      opt.step();
  }
  // By another value: still N times too large.
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = model(xs[i]).sum() / 2;
    // CHECK: [[@LINE+2]]:5: scaled=no
    loss.backward();
    probe_scaled();
    if ((i + 1) % 4 == 0)
      opt.step();
  }
  // A function of the user's handed N; the gradients divided before the
  // step.
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = scaled_loss(model(xs[i]), accum);
    // CHECK: [[@LINE+2]]:5: scaled=yes
    loss.backward();
    probe_scaled();
    if ((i + 1) % accum == 0)
      opt.step();
  }
  for (size_t i = 0; i < xs.size(); ++i) {
    model(xs[i]).sum().backward();
    if ((i + 1) % accum == 0) {
      for (auto &p : model->parameters())
        p.mutable_grad().div_(accum);
      opt.step();
    }
    // CHECK: [[@LINE+2]]:5: scaled=yes
    model(xs[i]).sum().backward();
    probe_scaled();
  }
}
