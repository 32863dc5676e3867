// RUN: %check_torch_tidy %s torch-eval-without-grad-guard %t

// A forward run once after the last statement of its function that trains,
// with nothing after it that trains, on data from outside, whose result is
// only read: it evaluates what was trained (a prediction on data loaded
// after the epochs, written out at the end of main). The fix puts a guard
// right before it: nothing after it trains. One on a tensor the function
// makes up (a sample on `torch::randn` noise, printed) is a demo, as a
// probe before training is: left alone.

#include <torch/torch.h>
#include <iostream>

torch::Tensor load_data();
void save_prices(double value);

int gan_main() {
  torch::nn::Linear G(4, 8);
  torch::optim::Adam opt(G->parameters(), 1e-3);
  for (int epoch = 0; epoch < 10; ++epoch) {
    opt.zero_grad();
    auto loss = G(torch::randn({16, 4})).pow(2).mean();
    loss.backward();
    opt.step();
  }
  torch::Tensor history = load_data();
  auto fake = G->forward(history);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: the model runs forward once with no torch::NoGradGuard or c10::InferenceMode and its result is only read as numbers or detached
  // CHECK-MESSAGES: :[[@LINE-9]]:3: note: 'gan_main' trains here, before it, and nothing after it trains
  // CHECK-FIXES: torch::Tensor history = load_data();
  // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
  // CHECK-FIXES-NEXT: auto fake = G->forward(history);
  fake = fake.view({1, -1});
  for (int i = 0; i < fake.size(1); ++i)
    save_prices(fake[0][i].item<double>());
  return 0;
}

// In a branch after the training, a block that trains nothing: the block
// rule says evaluation first, and the guard goes into the branch.
int predict_if_asked(bool show) {
  torch::nn::Linear net(4, 1);
  torch::optim::SGD opt(net->parameters(), 0.1);
  auto x = load_data();
  for (int step = 0; step < 100; ++step) {
    opt.zero_grad();
    net(x).pow(2).mean().backward();
    opt.step();
  }
  if (show) {
    auto y = net(x);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode
    // CHECK-FIXES: if (show) {
    // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
    // CHECK-FIXES-NEXT: auto y = net(x);
    std::cout << y.mean().item<double>() << "\n";
  }
  return 0;
}

// Training goes on after it (a second phase): a guard there would stop it
// recording; not evaluation after training.
int two_phases() {
  torch::nn::Linear net(4, 1);
  torch::optim::SGD opt(net->parameters(), 0.1);
  auto x = load_data();
  for (int step = 0; step < 10; ++step) {
    opt.zero_grad();
    net(x).pow(2).mean().backward();
    opt.step();
  }
  std::cout << net(x).mean().item<double>() << "\n";
  for (int step = 0; step < 10; ++step) {
    opt.zero_grad();
    net(x).abs().mean().backward();
    opt.step();
  }
  return 0;
}

// Its result is differentiated after the training: not evaluation.
double sensitivity() {
  torch::nn::Linear net(4, 1);
  torch::optim::SGD opt(net->parameters(), 0.1);
  auto x = load_data();
  for (int step = 0; step < 10; ++step) {
    opt.zero_grad();
    net(x).pow(2).mean().backward();
    opt.step();
  }
  auto input = load_data().requires_grad_(true);
  auto out = net(input).sum();
  auto grads = torch::autograd::grad({out}, {input});
  return grads[0].abs().sum().item<double>();
}

// On noise it makes up: a demo, quiet.
int sample_main() {
  torch::nn::Linear G(4, 8);
  torch::optim::Adam opt(G->parameters(), 1e-3);
  for (int epoch = 0; epoch < 10; ++epoch) {
    opt.zero_grad();
    G(torch::randn({16, 4})).pow(2).mean().backward();
    opt.step();
  }
  auto sample = G->forward(torch::randn({1, 4}));
  std::cout << sample.sum().item<double>() << "\n";
  return 0;
}
