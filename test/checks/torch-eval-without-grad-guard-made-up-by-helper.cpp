// RUN: %check_torch_tidy %s torch-eval-without-grad-guard %t

// A forward run once from main on input that a helper of the program makes
// up (its body, in view, returns tensors built from literals or sizes) is a
// demo or a shape probe, as one on `torch::zeros` in main itself is: left
// alone. A helper that returns what it reads, what it is handed from
// outside, or whose body is out of view gives data from outside:
// inference, reported (torch-eval-without-grad-guard-once-on-data.cpp).

#include <torch/torch.h>
#include <string>
#include <utility>
#include <vector>

void show(double value);

struct TinyNetImpl : torch::nn::Module {
  TinyNetImpl() : fc(register_module("fc", torch::nn::Linear(3, 2))) {}
  torch::Tensor forward(const torch::Tensor &x) { return fc->forward(x); }
  torch::nn::Linear fc;
};
TORCH_MODULE(TinyNet);

torch::Tensor make_inputs() {
  return torch::tensor({{0.43, 0.15, 0.89}, {0.55, 0.87, 0.66}});
}

std::pair<torch::Tensor, torch::Tensor> make_batch(int rows) {
  auto first = torch::tensor({{0.1, 0.2, 0.3}});
  auto rest = torch::randn({rows, 3});
  return {first, rest};
}

torch::Tensor scaled(const torch::Tensor &x, double by) { return x * by; }

// Out of view: whatever it returns comes from outside.
torch::Tensor read_features(const std::string &path);
std::pair<torch::Tensor, torch::Tensor> read_pair(const std::string &path);

torch::Tensor loaded(const std::string &path) { return read_features(path); }
// Fills what it is handed by reference.
void load_into(const std::string &path, torch::Tensor &out);
// Takes its input by non-const reference, and only reads it.
torch::Tensor doubled(torch::Tensor &x) { return x * 2; }
// Writes through its reference, in place.
void normalise(torch::Tensor &x) { x.sub_(x.mean()); }

torch::Tensor g_cache;
torch::Tensor cached() { return g_cache; }

// A constant of the program, or of LibTorch (`torch::kCPU`), is no data.
const int64_t kRows = 4;

void demo_literals(TinyNet &net) {
  show(net->forward(make_inputs()).sum().item<double>());
  torch::Device device = torch::kCPU;
  auto moved = make_inputs().to(device);
  show(net->forward(moved).sum().item<double>());
  show(net->forward(torch::randn({kRows, 3})).sum().item<double>());
  // Handed to the standard library's forwarding call, it is not written.
  auto probe = torch::zeros({2, 3});
  std::vector<torch::Tensor> batch;
  batch.emplace_back(probe);
  show(net->forward(probe).sum().item<double>());
  // Handed to a helper of the program whose body only reads it.
  auto read_only = torch::ones({2, 3});
  show(doubled(read_only).sum().item<double>());
  show(net->forward(read_only).sum().item<double>());
  auto [head, tail] = make_batch(4);
  show(net->forward(tail).sum().item<double>());
  show(net->forward(scaled(make_inputs(), 2.0)).sum().item<double>());
}

void run_on_file(TinyNet &net, const std::string &path) {
  // CHECK-FIXES: void run_on_file(TinyNet &net, const std::string &path) {
  // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
  show(net->forward(loaded(path)).sum().item<double>());
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: the model runs forward once with no torch::NoGradGuard or c10::InferenceMode and its result is only read as numbers or detached
  // CHECK-MESSAGES: :[[@LINE-2]]:8: note: its result is only read as numbers or detached and dropped in 'run_on_file': nothing differentiates it
  // CHECK-MESSAGES: :[[@LINE-3]]:8: note: 'run_on_file' runs it on data from outside, not on a tensor it makes up for a probe: it is inference, and a guard costs nothing
}

void run_on_cache(TinyNet &net) {
  show(net->forward(scaled(cached(), 0.5)).sum().item<double>());
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: the model runs forward once
  // CHECK-MESSAGES: :[[@LINE-2]]:8: note: its result is only read
  // CHECK-MESSAGES: :[[@LINE-3]]:8: note: 'run_on_cache' runs it on data from outside
}

void run_on_pair(TinyNet &net, const std::string &path) {
  auto [features, labels] = read_pair(path);
  show(net->forward(features).sum().item<double>());
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: the model runs forward once
  // CHECK-MESSAGES: :[[@LINE-2]]:8: note: its result is only read
  // CHECK-MESSAGES: :[[@LINE-3]]:8: note: 'run_on_pair' runs it on data from outside
}

// A local filled by a function it is handed to by reference holds what
// that function puts there.
void run_on_filled(TinyNet &net, const std::string &path) {
  torch::Tensor input;
  load_into(path, input);
  show(net->forward(input).sum().item<double>());
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: the model runs forward once
  // CHECK-MESSAGES: :[[@LINE-2]]:8: note: its result is only read
  // CHECK-MESSAGES: :[[@LINE-3]]:8: note: 'run_on_filled' runs it on data from outside
}

// Written through its reference by a helper of the program (in place, from
// what it holds), it is taken to hold what the helper puts there: data
// from outside, as for a function out of view.
void run_on_written(TinyNet &net) {
  auto centred = torch::rand({2, 3});
  normalise(centred);
  show(net->forward(centred).sum().item<double>());
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: the model runs forward once
  // CHECK-MESSAGES: :[[@LINE-2]]:8: note: its result is only read
  // CHECK-MESSAGES: :[[@LINE-3]]:8: note: 'run_on_written' runs it on data from outside
}

// Layers run in a cascade on what main makes up: each layer's output is
// made up as its input is, whatever the layers are built from (the layer
// is no input): a demo.
torch::Tensor first_weight = torch::randn({3, 1});
torch::Tensor cascade(torch::Tensor input, torch::nn::Linear &first,
                      torch::nn::Linear &second) {
  torch::Tensor hidden = first->forward(input);
  torch::Tensor output = second->forward(hidden);
  return output;
}

void demo_cascade() {
  torch::nn::Linear first(first_weight.size(1), first_weight.size(0));
  torch::nn::Linear second(3, 2);
  first->weight = first_weight;
  torch::Tensor input = torch::randn({5, 1});
  torch::Tensor output = cascade(input, first, second);
  show(output.sum().item<double>());
}

int main(int argc, char **argv) {
  TinyNet net;
  demo_cascade();
  demo_literals(net);
  run_on_file(net, argv[1]);
  run_on_cache(net);
  run_on_pair(net, argv[1]);
  run_on_filled(net, argv[1]);
  run_on_written(net);
  return 0;
}
