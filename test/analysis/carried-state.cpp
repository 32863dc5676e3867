// Carried state: does this read of a target that outlives the iteration see
// its value from before the iteration (or call), with history? And does a
// loop only replace a local declared outside it (one value at a time)?
// RUN: %analysis_dump %s -- %mock_torch | sort -t: -k1,1n | FileCheck %s -implicit-check-not=carried= -implicit-check-not=replaced=

#include <torch/torch.h>
#include <tuple>
#include <vector>

void probe_carried(const torch::Tensor &);
void probe_replaced(const torch::Tensor &);
void probe_replaced(const std::vector<torch::Tensor> &);

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

void replaced(torch::nn::Linear &net, torch::nn::GRUCell &cell,
              const std::vector<torch::Tensor> &xs) {
  torch::Tensor avg, total = torch::zeros({1}), h = torch::zeros({1, 8}),
                next, state = torch::zeros({1, 4}), shifted, tied, out;
  std::vector<torch::Tensor> kept;
  for (const auto &x : xs) {
    auto y = net(x);
    // A plain assignment of a fresh value each iteration.
    avg = y.mean() / 2;
    // CHECK: [[@LINE+1]]:5: replaced=yes
    probe_replaced(avg);
    // Added to.
    total += y.sum();
    // CHECK: [[@LINE+1]]:5: replaced=no
    probe_replaced(total);
    // Computed from what it held, directly or through a local.
    h = cell(x, h);
    // CHECK: [[@LINE+1]]:5: replaced=no
    probe_replaced(h);
    next = net(state);
    state = next;
    // CHECK: [[@LINE+1]]:5: replaced=no
    probe_replaced(state);
    // Changed in place, or appended to.
    shifted = y;
    shifted.add_(1);
    // CHECK: [[@LINE+1]]:5: replaced=no
    probe_replaced(shifted);
    kept.push_back(y);
    // CHECK: [[@LINE+1]]:5: replaced=no
    probe_replaced(kept);
    // Written through a reference that is not const.
    std::tie(out, tied) = std::make_tuple(y, y);
    // CHECK: [[@LINE+1]]:5: replaced=no
    probe_replaced(tied);
  }
}
