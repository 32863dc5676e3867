// Is a value's history thrown away when it is handed to a function of
// another unit (policy_net.cpp)? Its function summary says which parameters
// that function may differentiate: `to_image` reads numbers only,
// `learn_from` backpropagates. Without the summaries (OPAQUE), a function
// whose body is not in view may differentiate what it is handed.
// RUN: %torch_tidy -checks='-*,torch-*' --no-cache --export-summaries=%t.json %S/../checks/Inputs/function-summaries/policy_net.cpp -- %mock_torch -I%S/../checks/Inputs/function-summaries > /dev/null
// RUN: %analysis_dump --summaries=%t.json %s -- %mock_torch -I%S/../checks/Inputs/function-summaries | sort -t: -k1,1n | FileCheck %s -implicit-check-not=discarded=
// RUN: %analysis_dump %s -- %mock_torch -I%S/../checks/Inputs/function-summaries | sort -t: -k1,1n | FileCheck %s --check-prefix=OPAQUE -implicit-check-not=discarded=

#include "policy_net.h"

// Defined here, so that handing a value to it is seen to do nothing.
void probe_discarded(const torch::Tensor &) {}

void shown(torch::nn::Linear &model, const torch::Tensor &x,
           std::vector<float> &pixels) {
  auto out = model(x);
  probe_discarded(out);
  // CHECK: [[@LINE-1]]:3: discarded=yes
  // OPAQUE: [[@LINE-2]]:3: discarded=no
  to_image(out, pixels);
}

void learned(torch::nn::Linear &model, const torch::Tensor &x,
             torch::optim::SGD &optimizer) {
  auto out = model(x);
  probe_discarded(out);
  // CHECK: [[@LINE-1]]:3: discarded=no
  // OPAQUE: [[@LINE-2]]:3: discarded=no
  learn_from(out, optimizer);
}
