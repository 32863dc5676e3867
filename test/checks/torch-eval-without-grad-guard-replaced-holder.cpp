// RUN: %check_torch_tidy %s torch-eval-without-grad-guard %t

// A value kept from one iteration to the next is left to the growth checks
// only when it grows with the forward's history (added to, appended to,
// fed back, or given copies cut at the store as the growth checks' fix
// leaves). A test loss that each epoch replaces holds one graph at a time,
// and a rollout buffer of values detached before the store holds none: no
// growth check reports either, and the forward that made them, with no
// guard, is evaluation code.

#include <torch/torch.h>
#include <tuple>
#include <vector>

struct NetImpl : torch::nn::Module {
  torch::nn::Linear body{4, 4}, head{4, 1};
  torch::Tensor forward(const torch::Tensor &x) { return head(body(x)); }
};
TORCH_MODULE(Net);

float env_step(int action);

void fit(Net &net, torch::optim::SGD &opt, const torch::Tensor &x,
         const torch::Tensor &y, const torch::Tensor &test_x,
         const torch::Tensor &test_y, int epochs) {
  torch::Tensor test_loss = torch::zeros({1});
  for (int epoch = 0; epoch < epochs; ++epoch) {
    opt.zero_grad();
    auto loss = torch::mse_loss(net->forward(x), y);
    loss.backward();
    opt.step();
    if (epoch % 10 == 0) {
      auto out = net->forward(test_x);
      // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode
      // The block writes test_loss, declared outside it: no guard is put
      // in for the user.
      // CHECK-FIXES: if (epoch % 10 == 0) {
      // CHECK-FIXES-NEXT: auto out = net->forward(test_x);
      test_loss = torch::mse_loss(out, test_y) / test_x.size(0);
    }
    std::printf("%f %f\n", loss.item<float>(), test_loss.item<float>());
  }
}

void rollout(Net &value, Net &policy, int steps) {
  std::vector<std::tuple<torch::Tensor, int, torch::Tensor>> buffer;
  for (int t = 0; t < steps; ++t) {
    torch::Tensor state = torch::randn({1, 4});
    torch::Tensor v = value->forward(state).clone().detach();
    // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode
    // CHECK-FIXES: void rollout(Net &value, Net &policy, int steps) {
    // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
    int action = policy->forward(state).argmax().item<int>();
    env_step(action);
    buffer.push_back({state, action, v});
  }
}

// Added to across iterations: torch-graph-accumulation's finding.
float sum_losses(Net &net, const std::vector<torch::Tensor> &xs) {
  torch::Tensor total = torch::zeros({1});
  for (const auto &x : xs)
    total += net->forward(x).sum();
  return total.item<float>();
}

// A running total of copies cut at the store, the form the growth check's
// fix leaves: its finding stood for the loop, and a second run stays quiet.
float sum_detached(Net &net, const std::vector<torch::Tensor> &xs) {
  torch::Tensor total = torch::zeros({1});
  for (const auto &x : xs)
    total += net->forward(x).sum().detach();
  return total.item<float>();
}

std::vector<torch::Tensor> gather_detached(Net &net,
                                           const std::vector<torch::Tensor> &xs) {
  std::vector<torch::Tensor> outs;
  for (const auto &x : xs) {
    auto y = net->forward(x);
    outs.push_back(y.detach());
  }
  return outs;
}

// Fed back: a recurrent state, the growth checks' too.
float unroll(Net &net, torch::Tensor state, int steps) {
  for (int t = 0; t < steps; ++t)
    state = net->forward(state).repeat({1, 4});
  return state.sum().item<float>();
}

void run(Net &net, Net &policy, torch::optim::SGD &opt,
         const std::vector<torch::Tensor> &xs) {
  fit(net, opt, xs[0], xs[1], xs[2], xs[3], 100);
  rollout(net, policy, 100);
  sum_losses(net, xs);
  sum_detached(net, xs);
  gather_detached(net, xs);
  unroll(net, xs[0], 10);
}
