// Is a value's history thrown away where it is made? Only numbers read from
// it, or detached copies, leave its function.
// RUN: %analysis_dump %s -- %mock_torch | sort -t: -k1,1n | FileCheck %s -implicit-check-not=discarded=

#include <torch/torch.h>
#include <vector>

// Defined here, so that handing a value to it is seen to do nothing.
void probe_discarded(const torch::Tensor &) {}
void show(const torch::Tensor &);
double summarize(const torch::Tensor &t) { return t.sum().item<double>(); }

struct Keeper {
  torch::Tensor kept;
  std::vector<torch::Tensor> history;
};

double numbers_only(torch::nn::Linear &model, const torch::Tensor &x) {
  auto out = model(x);
  // CHECK: [[@LINE+1]]:3: discarded=yes
  probe_discarded(out);
  auto best = out.argmax(1);
  double seen = summarize(out);
  return best.item<double>() + seen + out.detach().sum().item<double>();
}

torch::Tensor returned(torch::nn::Linear &model, const torch::Tensor &x) {
  auto out = model(x);
  // CHECK: [[@LINE+1]]:3: discarded=no
  probe_discarded(out);
  return out * 2;
}

void kept_in_a_member(torch::nn::Linear &model, const torch::Tensor &x, Keeper &k) {
  auto out = model(x);
  // CHECK: [[@LINE+1]]:3: discarded=no
  probe_discarded(out);
  k.kept = out.relu();
}

void kept_in_a_container(torch::nn::Linear &model, const torch::Tensor &x,
                         std::vector<torch::Tensor> &outs) {
  auto out = model(x);
  // CHECK: [[@LINE+1]]:3: discarded=no
  probe_discarded(out);
  outs.push_back(out);
}

void handed_to_unseen_code(torch::nn::Linear &model, const torch::Tensor &x) {
  auto out = model(x);
  // CHECK: [[@LINE+1]]:3: discarded=no
  probe_discarded(out);
  show(out);
}

void differentiated(torch::nn::Linear &model, const torch::Tensor &x) {
  auto out = model(x);
  // CHECK: [[@LINE+1]]:3: discarded=no
  probe_discarded(out);
  out.sum().backward();
}
