// D: may a backward pass walk the history of this value?
// RUN: %analysis_dump %s -- %mock_torch | sort -t: -k1,1n | FileCheck %s -implicit-check-not=differentiated=

#include <torch/torch.h>
#include <catch2/benchmark/catch_benchmark.hpp>
#include <functional>
#include <vector>

void probe_differentiated(const torch::Tensor &);
void show(const torch::Tensor &);

void here(torch::nn::Linear &model, const torch::Tensor &x) {
  auto out = model(x);
  // CHECK: [[@LINE+1]]:3: differentiated=yes
  probe_differentiated(out);
  auto loss = out.pow(2).mean();
  loss.backward();
  // Only shown: a function outside view is not assumed to differentiate.
  // CHECK: [[@LINE+1]]:3: differentiated=no
  probe_differentiated(model(x));
}

// A baseline read only detached into the loss: the backward pass walks the
// loss's graph, which takes none of the baseline's.
void baseline(torch::nn::Linear &model, const torch::Tensor &x,
              const torch::Tensor &returns) {
  auto values = model(x);
  // CHECK: [[@LINE+1]]:3: differentiated=no
  probe_differentiated(values);
  auto advantages = returns - values.detach();
  auto loss = (model(x) * advantages).mean() + values.detach().mean();
  loss.backward();
}

// Returned: what the callers do with it.
torch::Tensor logits(torch::nn::Linear &model, const torch::Tensor &x) {
  auto out = model(x);
  // CHECK: [[@LINE+1]]:3: differentiated=yes
  probe_differentiated(out);
  return out * 2;
}
void train(torch::nn::Linear &model, const torch::Tensor &x) {
  logits(model, x).sum().backward();
}
torch::Tensor scores(torch::nn::Linear &model, const torch::Tensor &x) {
  auto out = model(x);
  // CHECK: [[@LINE+1]]:3: differentiated=no
  probe_differentiated(out);
  return out.softmax(-1);
}
void report(torch::nn::Linear &model, const torch::Tensor &x) {
  show(scores(model, x));
}

// Kept in a member that a backward pass of the unit walks.
struct Agent {
  torch::nn::Linear policy{4, 2};
  std::vector<torch::Tensor> log_probs_;
  void act(const torch::Tensor &obs) {
    auto logp = policy(obs).log_softmax(-1);
    // CHECK: [[@LINE+1]]:5: differentiated=yes
    probe_differentiated(logp);
    log_probs_.push_back(logp);
  }
  void update() { torch::stack(log_probs_).sum().backward(); }
};

// Returned from a lambda: what runs the lambda does with it. A benchmark
// framework only times it; a template of the unit's own that backpropagates
// it is followed; a std::function hides who calls it.
void timed(torch::nn::Linear &model, const torch::Tensor &x) {
  BENCHMARK("forward") {
    auto out = model(x);
    // CHECK: [[@LINE+1]]:5: differentiated=no
    probe_differentiated(out);
    return out;
  };
}
template <typename Fn> void step_on(torch::optim::SGD &opt, Fn &&loss_of) {
  opt.zero_grad();
  loss_of().backward();
  opt.step();
}
void trained(torch::nn::Linear &model, torch::optim::SGD &opt,
             const torch::Tensor &x) {
  step_on(opt, [&] {
    auto out = model(x).sum();
    // CHECK: [[@LINE+1]]:5: differentiated=yes
    probe_differentiated(out);
    return out;
  });
  std::function<torch::Tensor()> held = [&] {
    auto out = model(x).sum();
    // CHECK: [[@LINE+1]]:5: differentiated=yes
    probe_differentiated(out);
    return out;
  };
  held();
}

// Handed to a std::function: the closures it may run decide. Every call of
// fit_step passes a lambda, and one of them backpropagates what it is given.
void fit_step(torch::nn::Linear &model, const torch::Tensor &x,
              const std::function<void(torch::Tensor)> &step) {
  auto out = model(x);
  // CHECK: [[@LINE+1]]:3: differentiated=yes
  probe_differentiated(out);
  auto loss = out.pow(2).mean();
  step(loss);
}
void fit_all(torch::nn::Linear &model, const torch::Tensor &x) {
  auto learn = [](torch::Tensor loss) { loss.backward(); };
  fit_step(model, x, learn);
  fit_step(model, x, [](torch::Tensor loss) { show(loss); });
}
// Every closure only shows it.
void look_step(torch::nn::Linear &model, const torch::Tensor &x,
               const std::function<void(torch::Tensor)> &step) {
  auto out = model(x);
  // CHECK: [[@LINE+1]]:3: differentiated=no
  probe_differentiated(out);
  auto loss = out.pow(2).mean();
  step(loss);
}
void look_all(torch::nn::Linear &model, const torch::Tensor &x) {
  look_step(model, x, [](torch::Tensor loss) { show(loss); });
}
// One handed in from outside view: only what is seen counts.
void passed_step(torch::nn::Linear &model, const torch::Tensor &x,
                 const std::function<void(torch::Tensor)> &step) {
  auto out = model(x);
  // CHECK: [[@LINE+1]]:3: differentiated=no
  probe_differentiated(out);
  auto loss = out.pow(2).mean();
  step(loss);
}
void passed_all(torch::nn::Linear &model, const torch::Tensor &x,
                const std::function<void(torch::Tensor)> &from_outside) {
  passed_step(model, x, [](torch::Tensor loss) { show(loss); });
  passed_step(model, x, from_outside);
}
