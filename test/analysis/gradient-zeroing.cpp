// Are the gradients an optimizer step applies cleared on every path from
// its previous step? Which calls train, and which statements run every
// iteration of their loop?
// RUN: %analysis_dump %s -- %mock_torch | sort -t: -k1,1n | FileCheck %s -implicit-check-not=zeroed= -implicit-check-not=trains= -implicit-check-not=every-iteration=

#include <torch/torch.h>
#include <vector>

void probe_zeroed(const torch::Tensor &);
void probe_trains(const torch::Tensor &);
void probe_trains(double);
template <class T> void probe_every_iteration(const T &);

void clear_elsewhere(torch::optim::Optimizer &); // defined elsewhere
void zero_model(torch::nn::Linear &m) { m->zero_grad(); }

void zeroing(torch::nn::Linear &model, torch::nn::Linear &other,
             const std::vector<torch::Tensor> &xs, bool flag) {
  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(0.1));
  for (const auto &x : xs) {
    model(x).sum().backward();
    // CHECK: [[@LINE+1]]:5: zeroed=no step-line=[[@LINE+1]]
    probe_zeroed(opt.step());
  }
  for (const auto &x : xs) {
    opt.zero_grad();
    model(x).sum().backward();
    // CHECK: [[@LINE+1]]:5: zeroed=yes
    probe_zeroed(opt.step());
  }
  // On one path only.
  for (const auto &x : xs) {
    if (flag)
      opt.zero_grad();
    model(x).sum().backward();
    // CHECK: [[@LINE+1]]:5: zeroed=no step-line=[[@LINE+1]]
    probe_zeroed(opt.step());
  }
  // Another model's gradients; this model's, through a helper.
  for (const auto &x : xs) {
    other->zero_grad();
    model(x).sum().backward();
    // CHECK: [[@LINE+1]]:5: zeroed=no step-line=[[@LINE+1]]
    probe_zeroed(opt.step());
  }
  for (const auto &x : xs) {
    zero_model(model);
    model(x).sum().backward();
    // CHECK: [[@LINE+1]]:5: zeroed=yes
    probe_zeroed(opt.step());
  }
  for (const auto &x : xs) {
    zero_model(other);
    model(x).sum().backward();
    // CHECK: [[@LINE+1]]:5: zeroed=no step-line=[[@LINE+1]]
    probe_zeroed(opt.step());
  }
  // A function out of view handed the optimizer may clear it.
  for (const auto &x : xs) {
    clear_elsewhere(opt);
    model(x).sum().backward();
    // CHECK: [[@LINE+1]]:5: zeroed=yes
    probe_zeroed(opt.step());
  }
  // By hand, in a loop over the parameters (which may run no iteration:
  // the loop counts as a whole).
  for (const auto &x : xs) {
    model(x).sum().backward();
    // CHECK: [[@LINE+1]]:5: zeroed=yes
    probe_zeroed(opt.step());
    for (auto &p : model->parameters())
      p.mutable_grad().reset();
  }
  for (const auto &x : xs) {
    for (auto &p : opt.parameters())
      if (p.grad().defined())
        p.mutable_grad().data().zero_();
    model(x).sum().backward();
    // CHECK: [[@LINE+1]]:5: zeroed=yes
    probe_zeroed(opt.step());
  }
  // Two steps of one optimizer, zeroed before the first only.
  for (const auto &x : xs) {
    opt.zero_grad();
    model(x).sum().backward();
    // CHECK: [[@LINE+1]]:5: zeroed=yes
    probe_zeroed(opt.step());
    model(x * 2).sum().backward();
    // CHECK: [[@LINE+1]]:5: zeroed=no step-line=[[@LINE-2]]
    probe_zeroed(opt.step());
  }
}

double train_epoch(torch::nn::Linear &model, torch::optim::SGD &opt,
                   const std::vector<torch::Tensor> &xs) {
  double total = 0;
  for (const auto &x : xs) {
    opt.zero_grad();
    auto loss = model(x).sum();
    loss.backward();
    opt.step();
    total += loss.item<double>();
  }
  return total;
}
double run_epoch(torch::nn::Linear &model, torch::optim::SGD &opt,
                 const std::vector<torch::Tensor> &xs) {
  return train_epoch(model, opt, xs);
}
double score(torch::nn::Linear &model, const torch::Tensor &x) {
  return model(x).sum().item<double>();
}

void training_calls(torch::nn::Linear &model, torch::optim::SGD &opt,
                    const std::vector<torch::Tensor> &xs) {
  // CHECK: [[@LINE+1]]:3: trains=yes
  probe_trains(train_epoch(model, opt, xs));
  // Through a function of the unit that calls one.
  // CHECK: [[@LINE+1]]:3: trains=yes
  probe_trains(run_epoch(model, opt, xs));
  // CHECK: [[@LINE+1]]:3: trains=no
  probe_trains(score(model, xs[0]));
}

void iterations(const std::vector<torch::Tensor> &xs, bool flag) {
  for (size_t i = 0; i < xs.size(); ++i) {
    // CHECK: [[@LINE+1]]:5: every-iteration=yes
    probe_every_iteration(xs[i]);
    if (flag) {
      // CHECK: [[@LINE+1]]:7: every-iteration=no
      probe_every_iteration(xs[i]);
    }
    // CHECK: [[@LINE+1]]:22: every-iteration=no
    flag ? (void)0 : probe_every_iteration(i);
    // CHECK: [[@LINE+1]]:21: every-iteration=no
    (void)(flag && (probe_every_iteration(i), true));
  }
}
