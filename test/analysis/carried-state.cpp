// Carried state: does this read of a target that outlives the iteration see
// its value from before the iteration (or call), with history?
// RUN: %analysis_dump %s -- %mock_torch | sort -t: -k1,1n | FileCheck %s -implicit-check-not=carried=

#include <torch/torch.h>
#include <tuple>
#include <vector>

void probe_carried(const torch::Tensor &);

void loops(torch::nn::GRUCell &cell, const std::vector<torch::Tensor> &xs) {
  torch::Tensor h = torch::zeros({1, 8}), cut = h, reset = h, data = h;
  for (const auto &x : xs) {
    // Around the loop from the assignment below.
    // CHECK: [[@LINE+1]]:5: carried=yes
    probe_carried(h);
    h = cell(x, h);
    cut = cut.detach();
    // Detached at the top of the iteration.
    // CHECK: [[@LINE+1]]:5: carried=no
    probe_carried(cut);
    cut = cell(x, cut);
    // Reset at the end of every iteration: what comes around has none.
    // CHECK: [[@LINE+1]]:5: carried=no
    probe_carried(reset);
    reset = reset + cell(x, h).sum();
    reset = torch::zeros({1, 8});
    // Carried, but only ever computed without history.
    // CHECK: [[@LINE+1]]:5: carried=no
    probe_carried(data);
    data = data + x;
  }
  // CHECK: [[@LINE+1]]:3: carried=not-outliving
  probe_carried(h);
}

struct Model {
  torch::nn::Linear l1{4, 4}, l2{4, 4};
  torch::Tensor mu_, state_;
  torch::Tensor forward(const torch::Tensor &x) {
    mu_ = l1(x);
    // Overwritten from fresh inputs earlier in this call.
    // CHECK: [[@LINE+1]]:5: carried=no
    probe_carried(mu_);
    // Left by the previous call.
    // CHECK: [[@LINE+1]]:5: carried=yes
    probe_carried(state_);
    state_ = l2(state_ + x);
    return mu_;
  }
};
