// RUN: %check_torch_tidy %s torch-eval-without-grad-guard %t

// What the forward's value is kept in does not decide whether the forward
// is evaluation code: a test loss that each epoch replaces, a rollout
// buffer of values detached before the store, a total added to across
// iterations, a vector of outputs gathered and returned, copies cut at the
// store, a recurrent state fed back. Where nothing differentiates what is
// kept, the forward, with no guard, records graphs for nothing, and the
// guard is the fix for all of it. Where the kept value grows with the
// forward's history, the growth checks report the store as well.

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

// Added to across iterations: torch-graph-accumulation reports the store
// too.
float sum_losses(Net &net, const std::vector<torch::Tensor> &xs) {
  torch::Tensor total = torch::zeros({1});
  for (const auto &x : xs)
    total += net->forward(x).sum();
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: the model runs forward in evaluation code
  // CHECK-MESSAGES: :[[@LINE-2]]:14: note: its result is only read as numbers or detached and dropped in 'sum_losses'
  return total.item<float>();
}

// A running total of copies cut at the store, the form the growth check's
// fix leaves: the graph of each forward is still recorded, for nothing.
float sum_detached(Net &net, const std::vector<torch::Tensor> &xs) {
  torch::Tensor total = torch::zeros({1});
  for (const auto &x : xs)
    total += net->forward(x).sum().detach();
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: the model runs forward in evaluation code
  // CHECK-FIXES: float sum_detached(Net &net, const std::vector<torch::Tensor> &xs) {
  // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
  return total.item<float>();
}

std::vector<torch::Tensor> gather_detached(Net &net,
                                           const std::vector<torch::Tensor> &xs) {
  std::vector<torch::Tensor> outs;
  for (const auto &x : xs) {
    auto y = net->forward(x);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: the model runs forward in evaluation code
    outs.push_back(y.detach());
  }
  return outs;
}

// Fed back: a recurrent state, reported by the growth checks too.
float unroll(Net &net, torch::Tensor state, int steps) {
  for (int t = 0; t < steps; ++t)
    state = net->forward(state).repeat({1, 4});
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: the model runs forward in evaluation code
  return state.sum().item<float>();
}

// An ensemble's outputs gathered over its members and returned: the caller
// only reads the result, so each member's forward recorded a graph for
// nothing.
struct Ensemble {
  std::vector<Net> members;
  torch::Tensor predict(const torch::Tensor &x) {
    std::vector<torch::Tensor> outs;
    for (size_t i = 0; i < members.size(); ++i)
      outs.push_back(members[i]->forward(x));
    // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: the model runs forward in evaluation code
    return torch::cat(outs, 1);
  }
};

void run(Net &net, Net &policy, torch::optim::SGD &opt,
         const std::vector<torch::Tensor> &xs) {
  fit(net, opt, xs[0], xs[1], xs[2], xs[3], 100);
  rollout(net, policy, 100);
  sum_losses(net, xs);
  sum_detached(net, xs);
  gather_detached(net, xs);
  unroll(net, xs[0], 10);
  Ensemble ensemble;
  std::printf("%ld\n", ensemble.predict(xs[0]).argmax().item<long>());
}
