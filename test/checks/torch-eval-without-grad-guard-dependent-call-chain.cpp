// RUN: %check_torch_tidy %s torch-eval-without-grad-guard %t -- -quiet -- -I%S/Inputs/dependent-calls
// RUN: %check_torch_tidy --check-suffix=OPEN %s torch-eval-without-grad-guard %t.open -- -quiet -- -I%S/Inputs/dependent-calls -DOPEN_MAIN

// Evaluation templates reached only through wrapper templates that nothing
// instantiates: the wrappers' calls are on values of a template parameter's
// type, which clang resolves only in an instantiation. Each names one
// candidate of its name with its number of arguments (for the calls in
// namespace app, whose own render hides the global ones, one that
// argument-dependent lookup finds through Net), and the evaluation code is
// entered as those calls run: from wrappers that nothing calls, so as
// main's statements leave grad mode by their end. Under a main that holds
// torch::NoGradGuard for its whole body they are quiet; under one with no
// guard (OPEN) they are flagged.

#include "render.h"
#include <cstdio>
#include <vector>

template <typename Data> float render(Net &net, const Data &data) {
  // CHECK-FIXES-OPEN: {{^}}  torch::NoGradGuard no_grad;{{$}}
  net->eval();
  float total = 0;
  for (const torch::Tensor &batch : data)
    total += net->forward(batch).sum().item<float>();
  // CHECK-MESSAGES-OPEN: :[[@LINE-1]]:14: warning: the model runs forward in evaluation code
  return total;
}

template <typename Data>
float render(Net &net, const Data &data, int repeats) {
  // CHECK-FIXES-OPEN: {{^}}  torch::NoGradGuard no_grad;{{$}}
  net->eval();
  std::vector<torch::Tensor> images(data.size() * repeats);
  for (int r = 0; r < repeats; ++r)
    for (size_t i = 0; i < data.size(); ++i)
      images[r * data.size() + i] = net->forward(torch::Tensor(data[i]));
  // CHECK-MESSAGES-OPEN: :[[@LINE-1]]:37: warning: the model runs forward in evaluation code
  return images.empty() ? 0.f : images.front().sum().item<float>();
}

template <typename Data> float render_all(Net &net, const Data &data) {
  return render(net, data) + render(net, data, 3);
}

namespace app {
template <typename Data>
void render(Net &net, const Data &data, const char *title, int repeats) {
  float score = render(net, data) + render(net, data, repeats);
  std::printf("%s: %f\n", title, score);
}
} // namespace app

int main() {
  Net net;
#ifndef OPEN_MAIN
  torch::NoGradGuard no_grad;
#endif
  // render_all(net, std::vector<torch::Tensor>{torch::ones({8, 4})});
  return 0;
}
