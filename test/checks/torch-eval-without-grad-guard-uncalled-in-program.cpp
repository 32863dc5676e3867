// RUN: %check_torch_tidy %s torch-eval-without-grad-guard %t -- -quiet -- -I%S/Inputs/uncalled-in-program
// RUN: %check_torch_tidy --check-suffix=OPEN %s torch-eval-without-grad-guard %t.open -- -quiet -- -I%S/Inputs/uncalled-in-program -DOPEN_MAIN

// A function of a program's own file (the file that defines main) that
// nothing calls, its calls commented out or not yet written, can only ever
// run from main: it is judged as entered in the grad state that main's own
// statements leave by their end. Under a main that holds torch::NoGradGuard
// for its whole body the benchmarks below are quiet; under a main with no
// guard (OPEN) they are flagged. A function that a header declares may be
// called from another unit, so it is judged as entered with grad mode on
// either way.

#include "served.h"
#include <vector>

float benchmark(Net &net) {
  // CHECK-FIXES-OPEN: {{^}}  torch::NoGradGuard no_grad;{{$}}
  net->eval();
  float total = 0;
  for (int i = 0; i < 100; ++i) {
    auto out = net->forward(torch::ones({8, 4}));
    // CHECK-MESSAGES-OPEN: :[[@LINE-1]]:16: warning: the model runs forward in evaluation code
    total += out.sum().item<float>();
  }
  return total;
}

// Reached only through another function that nothing calls.
static float warm_up(Net &net) {
  // CHECK-FIXES-OPEN: {{^}}  torch::NoGradGuard no_grad;{{$}}
  float total = 0;
  for (int i = 0; i < 10; ++i)
    total += net->forward(torch::ones({8, 4})).sum().item<float>();
  // CHECK-MESSAGES-OPEN: :[[@LINE-1]]:14: warning: the model runs forward in evaluation code
  return total;
}

float run_all(Net &net) { return warm_up(net) + benchmark(net); }

float serve(Net &net, const torch::Tensor &request) {
  // CHECK-FIXES: {{^}}  torch::NoGradGuard no_grad;{{$}}
  // CHECK-FIXES-OPEN: {{^}}  torch::NoGradGuard no_grad;{{$}}
  net->eval();
  float best = 0;
  for (int i = 0; i < 4; ++i)
    best += net->forward(request).max().item<float>();
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: the model runs forward in evaluation code
  // CHECK-MESSAGES-OPEN: :[[@LINE-2]]:13: warning: the model runs forward in evaluation code
  return best;
}

// A constructor is entered without a call that names it: main builds this
// one before its guard, with grad mode on.
struct Scores {
  explicit Scores(Net &net) {
    // CHECK-FIXES: {{^}}    torch::NoGradGuard no_grad;{{$}}
    // CHECK-FIXES-OPEN: {{^}}    torch::NoGradGuard no_grad;{{$}}
    net->eval();
    for (int i = 0; i < 3; ++i)
      values.push_back(net->forward(torch::ones({1, 4})).sum().item<float>());
    // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: the model runs forward in evaluation code
    // CHECK-MESSAGES-OPEN: :[[@LINE-2]]:24: warning: the model runs forward in evaluation code
  }
  std::vector<float> values;
};

int main() {
  Net net;
  Scores warm_up_scores(net);
#ifndef OPEN_MAIN
  torch::NoGradGuard no_grad;
#endif
  // std::cout << run_all(net);
  return 0;
}
