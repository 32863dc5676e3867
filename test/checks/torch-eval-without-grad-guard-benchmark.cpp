// A demo forward in main whose output is only printed, then a benchmark
// that runs the model batch after batch (through functions of the unit):
// the variable that holds the demo's output keeps its graph and
// activations alive through all of that, as a shape probe's is kept
// through training. No fix: a guard belongs in a block of the demo's own.
// With the demo in a block of its own (BLOCK), its graph dies before the
// benchmark: not flagged. A function that keeps another forward's result
// for autograd work (a Jacobian) is left alone in
// torch-eval-without-grad-guard-real-code.cpp.
// RUN: %check_torch_tidy %s torch-eval-without-grad-guard %t
// RUN: %check_torch_tidy --check-suffix=BLOCK %s torch-eval-without-grad-guard %t.block -- -quiet -- -DDEMO_IN_A_BLOCK

#include <torch/torch.h>
#include <iostream>

double time_batch(torch::nn::Linear &model, int64_t batch) {
  auto out = model->forward(torch::randn({batch, 4}));
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: the model runs forward in evaluation code
  // CHECK-MESSAGES-BLOCK: :[[@LINE-2]]:14: warning: the model runs forward in evaluation code
  // CHECK-FIXES: double time_batch(torch::nn::Linear &model, int64_t batch) {
  // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
  // CHECK-FIXES-BLOCK: double time_batch(torch::nn::Linear &model, int64_t batch) {
  // CHECK-FIXES-BLOCK-NEXT: torch::NoGradGuard no_grad;
  return out[0][0].item<double>();
}

void benchmark(torch::nn::Linear &model) {
  for (int64_t batch = 1; batch < 1024; batch *= 2)
    std::cout << time_batch(model, batch) << std::endl;
}

int main() {
  torch::nn::Linear model(4, 2);
#ifdef DEMO_IN_A_BLOCK
  {
#endif
    auto demo = model->forward(torch::randn({2, 4}));
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: the model runs forward once with no torch::NoGradGuard or c10::InferenceMode and its result is only read as numbers or detached
    // CHECK-MESSAGES: :[[@LINE-2]]:17: note: its result is only read as numbers or detached, but 'demo' keeps its graph alive while the model runs again and again after it, until 'main' returns; run it under a guard in a block of its own
    std::cout << demo.sizes() << std::endl;
#ifdef DEMO_IN_A_BLOCK
  }
#endif
  benchmark(model);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: note: the model runs again and again here
  return 0;
}
