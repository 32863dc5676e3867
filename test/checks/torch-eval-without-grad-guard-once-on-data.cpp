// RUN: %check_torch_tidy %s torch-eval-without-grad-guard %t

// A forward run once, outside any loop, in code that trains nothing, is
// inference when its input is data from outside the function (a dataset,
// a parameter, an image read from disk): its graph and activations live as
// long as the output. On an input the function makes up (a smoke test on
// `torch::zeros`, a shape probe on `torch::randn`) it is left alone, as is
// a forward whose result a backward pass walks.

#include <torch/torch.h>
#include <string>

struct Grid {
  explicit Grid(int n);
  torch::Tensor points;
};
void saveBinary(const float *begin, const float *end, const std::string &path);
void show(double value);

// A smoke test of the loaded model on a made-up input.
void smoke(torch::nn::Linear &net) {
  torch::Tensor probe = torch::zeros({1, 2});
  show(net->forward(probe).sum().item<double>());
}

// A helper that main runs once on data it reads: inference as well
// (torch-eval-without-grad-guard-once-from-main.cpp).
void checkLayer(torch::nn::Linear &net, const torch::Tensor &x) {
  // CHECK-FIXES: void checkLayer(torch::nn::Linear &net, const torch::Tensor &x) {
  // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
  show(net->forward(x).sum().item<double>());
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: the model runs forward once with no torch::NoGradGuard or c10::InferenceMode and its result is only read as numbers or detached
  // CHECK-MESSAGES: :[[@LINE-2]]:8: note: its result is only read as numbers or detached and dropped in 'checkLayer': nothing differentiates it
  // CHECK-MESSAGES: :[[@LINE-3]]:8: note: 'checkLayer' runs it on data from outside, not on a tensor it makes up for a probe: it is inference, and a guard costs nothing
}

// Trains on what it is given, then reads a number: training, not inference
// (with no call in view).
void fit(torch::nn::Linear &net, const torch::Tensor &x, torch::optim::SGD &opt) {
  torch::Tensor loss = net->forward(x).pow(2).mean();
  loss.backward();
  opt.step();
  show(loss.item<double>());
}

int main(int argc, char **argv) {
  // CHECK-FIXES: int main(int argc, char **argv) {
  // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
  torch::nn::Linear net(2, 1);
  torch::load(net, argv[1]);
  smoke(net);
  Grid grid(argc);
  torch::Tensor out = net->forward(grid.points).to(torch::kCPU);
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: the model runs forward once with no torch::NoGradGuard or c10::InferenceMode and its result is only read as numbers or detached
  // CHECK-MESSAGES: :[[@LINE-2]]:23: note: its result is only read as numbers or detached and dropped in 'main': nothing differentiates it
  // CHECK-MESSAGES: :[[@LINE-3]]:23: note: 'main' runs it on data from outside, not on a tensor it makes up for a probe: it is inference, and a guard costs nothing
  saveBinary(out.data_ptr<float>(), out.data_ptr<float>() + out.numel(), "out.bin");
  checkLayer(net, grid.points);
  return 0;
}
