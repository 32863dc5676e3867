// O: does the target outlive the iteration (or the call)?
// RUN: %analysis_dump %s -- %mock_torch | sort -t: -k1,1n | FileCheck %s -implicit-check-not=outlives=

#include <torch/torch.h>
#include <vector>

void probe_outlives(const torch::Tensor &);
void probe_outlives(const std::vector<torch::Tensor> &);

torch::Tensor global_tensor;

struct Trainer {
  torch::Tensor member;
  std::vector<torch::Tensor> saved;
  void step() {
    // CHECK: [[@LINE+1]]:5: outlives=call
    probe_outlives(member);
    // CHECK: [[@LINE+1]]:5: outlives=call bounded
    probe_outlives(saved);
  }
  void finish() {
    torch::stack(saved).sum().backward();
    saved.clear();
  }
};

void locals(torch::Tensor &by_ref, torch::Tensor by_value, std::vector<torch::Tensor> &sink) {
  torch::Tensor outside;
  static torch::Tensor kept;
  // CHECK: [[@LINE+1]]:3: outlives=no
  probe_outlives(outside);
  // CHECK: [[@LINE+1]]:3: outlives=call
  probe_outlives(kept);
  // CHECK: [[@LINE+1]]:3: outlives=call
  probe_outlives(by_ref);
  // CHECK: [[@LINE+1]]:3: outlives=call
  probe_outlives(global_tensor);
  for (int i = 0; i < 3; ++i) {
    torch::Tensor inside;
    // CHECK: [[@LINE+1]]:5: outlives=loop
    probe_outlives(outside);
    // CHECK: [[@LINE+1]]:5: outlives=no
    probe_outlives(inside);
    // CHECK: [[@LINE+1]]:5: outlives=loop
    probe_outlives(by_value);
    // CHECK: [[@LINE+1]]:5: outlives=call
    probe_outlives(sink[i]);
    auto &alias = outside;
    // CHECK: [[@LINE+1]]:5: outlives=loop
    probe_outlives(alias);
  }
}

void bounded(torch::nn::Linear &model, const torch::Tensor &x) {
  for (int epoch = 0; epoch < 3; ++epoch) {
    torch::Tensor loss = torch::zeros({});
    for (int t = 0; t < 5; ++t) {
      // CHECK: [[@LINE+1]]:7: outlives=loop bounded
      probe_outlives(loss);
      loss = loss + model(x).sum();
    }
    loss.backward();
  }
  torch::Tensor total = torch::zeros({});
  for (int epoch = 0; epoch < 3; ++epoch) {
    for (int t = 0; t < 5; ++t) {
      // Never reset across epochs: not bounded.
      // CHECK: [[@LINE+1]]:7: outlives=loop{{$}}
      probe_outlives(total);
      total = total + model(x).sum();
    }
    total.backward();
  }
}
