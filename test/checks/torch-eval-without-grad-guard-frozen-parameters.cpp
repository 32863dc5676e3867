// RUN: %check_torch_tidy %s torch-eval-without-grad-guard %t

// A module whose parameters are frozen before its forward
// (`requires_grad_(false)` on each of them, set back after) records no
// graph when what it is given needs no gradient either: that is the
// guard's work done by hand, and it is left alone. Freezing a part of the
// module, freezing only on some paths, setting them back before the
// forward, or an input that requires gradients still records one.

#include <torch/torch.h>
#include <vector>

#define GRAD_TOGGLE(net, on)                                                   \
  if (on) {                                                                    \
    for (auto &p : net->parameters())                                          \
      p.requires_grad_(true);                                                  \
  } else {                                                                     \
    for (auto &p : net->parameters())                                          \
      p.requires_grad_(false);                                                 \
  }

struct PolicyImpl : torch::nn::Module {
  torch::nn::Linear body{4, 4}, head{4, 2};
  torch::Tensor forward(const torch::Tensor &x) { return head(body(x)); }
};
TORCH_MODULE(Policy);

struct Labeler {
  Policy pi;

  float toggled(std::vector<float> state) {
    torch::Tensor s = torch::from_blob(state.data(), {1, 4}).clone();
    GRAD_TOGGLE(pi, false);
    float label = pi->forward(s).index({0, 0}).item<float>();
    GRAD_TOGGLE(pi, true);
    return label;
  }

  float frozen(std::vector<float> state) {
    torch::Tensor s = torch::from_blob(state.data(), {1, 4}).clone();
    for (auto &p : pi->parameters())
      p.set_requires_grad(false);
    float label = pi->forward(s).argmax().item<float>();
    for (auto &p : pi->parameters())
      p.set_requires_grad(true);
    return label;
  }

  float head_only(std::vector<float> state) {
    torch::Tensor s = torch::from_blob(state.data(), {1, 4}).clone();
    for (auto &p : pi->head->parameters())
      p.requires_grad_(false);
    return pi->forward(s).argmax().item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode
    // CHECK-FIXES: float head_only(std::vector<float> state) {
    // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
  }

  float set_back_first(std::vector<float> state) {
    torch::Tensor s = torch::from_blob(state.data(), {1, 4}).clone();
    GRAD_TOGGLE(pi, false);
    GRAD_TOGGLE(pi, true);
    return pi->forward(s).argmax().item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode
    // CHECK-FIXES: float set_back_first(std::vector<float> state) {
    // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
  }

  float some_paths(std::vector<float> state, bool quiet) {
    torch::Tensor s = torch::from_blob(state.data(), {1, 4}).clone();
    if (quiet) {
      GRAD_TOGGLE(pi, false);
    }
    return pi->forward(s).argmax().item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode
    // CHECK-FIXES: float some_paths(std::vector<float> state, bool quiet) {
    // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
  }

  float input_needs_grad() {
    torch::Tensor goal = torch::zeros({1, 4}, torch::requires_grad());
    GRAD_TOGGLE(pi, false);
    return pi->forward(goal * 2).argmax().item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode
    // CHECK-FIXES: float input_needs_grad() {
    // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
  }
};

void run(Labeler &labeler, bool quiet) {
  std::vector<float> state(4);
  for (int step = 0; step < 100; ++step) {
    labeler.toggled(state);
    labeler.frozen(state);
    labeler.head_only(state);
    labeler.set_back_first(state);
    labeler.some_paths(state, quiet);
    labeler.input_needs_grad();
  }
}
