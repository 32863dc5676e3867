// Which modules a call leaves in evaluation mode, and which training steps
// of the module that mode reaches before anything sets it back to training.
// RUN: %analysis_dump %s -- %mock_torch | sort -t: -k1,1n | FileCheck %s -implicit-check-not=eval-left= -implicit-check-not=reaches= -implicit-check-not=frozen= -implicit-check-not=frozen-here=

#include <torch/torch.h>
#include <vector>

void probe_left_eval();
void probe_eval_reaches();
void probe_frozen(const torch::nn::Module &);
void probe_frozen_here(const torch::nn::Module &);

struct NetImpl : torch::nn::Module {
  torch::nn::Linear backbone{4, 4}, head{4, 2};
  torch::Tensor forward(const torch::Tensor &x) { return head(backbone(x)); }
};
TORCH_MODULE(Net);

double evaluate(Net &model, const torch::Tensor &x) {
  model->eval();
  return model(x).sum().item<double>();
}
double evaluate_and_resume(Net &model, const torch::Tensor &x) {
  model->eval();
  double score = model(x).sum().item<double>();
  model->train();
  return score;
}
void train_epoch(Net &model, torch::optim::SGD &opt, const torch::Tensor &x) {
  model->train();
  opt.zero_grad();
  model(x).sum().backward();
  opt.step();
}

struct Runner {
  Net net;
  void freeze() { net->backbone->eval(); }
  void validate() {
    net->eval();
    net->head->train();
  }
};

void left(Net &model, Runner &runner, const torch::Tensor &x) {
  model->eval();
  // CHECK: [[@LINE+1]]:3: eval-left=model
  probe_left_eval();
  model->backbone->train(false);
  // CHECK: [[@LINE+1]]:3: eval-left=model.backbone
  probe_left_eval();
  model->train();
  // CHECK: [[@LINE+1]]:3: eval-left=none
  probe_left_eval();
  evaluate(model, x);
  // CHECK: [[@LINE+1]]:3: eval-left=model
  probe_left_eval();
  evaluate_and_resume(model, x);
  // CHECK: [[@LINE+1]]:3: eval-left=none
  probe_left_eval();
  runner.freeze();
  // CHECK: [[@LINE+1]]:3: eval-left=runner.net.backbone
  probe_left_eval();
  // The head is trained again, not the rest.
  runner.validate();
  // CHECK: [[@LINE+1]]:3: eval-left=runner.net
  probe_left_eval();
}

void reaches(Net &model, Net &teacher, const std::vector<torch::Tensor> &xs) {
  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(0.1));
  for (int epoch = 0; epoch < 10; ++epoch) {
    for (const auto &x : xs) {
      opt.zero_grad();
      model(x).sum().backward();
      opt.step();
    }
    model->eval();
    // CHECK: [[@LINE+1]]:5: reaches=[[@LINE-3]]
    probe_eval_reaches();
    // A submodule's mode is not another's: the head set back leaves the
    // backbone in evaluation mode.
    model->backbone->eval();
    // CHECK: [[@LINE+1]]:5: reaches=[[@LINE-8]]
    probe_eval_reaches();
    model->head->train();
  }
  for (int epoch = 0; epoch < 10; ++epoch) {
    model->train();
    for (const auto &x : xs) {
      opt.zero_grad();
      model(x).sum().backward();
      opt.step();
    }
    model->backbone->eval();
    // Set back by an owner first.
    // CHECK: [[@LINE+1]]:5: reaches=none
    probe_eval_reaches();
  }
  // The teacher is trained by no step of the loop.
  for (const auto &x : xs) {
    teacher->eval();
    // CHECK: [[@LINE+1]]:5: reaches=none
    probe_eval_reaches();
    opt.zero_grad();
    (model(x) - teacher(x).detach()).pow(2).sum().backward();
    opt.step();
  }
  // A function of the unit that trains the module, and sets it to training
  // first.
  for (int epoch = 0; epoch < 10; ++epoch) {
    train_epoch(model, opt, xs[0]);
    evaluate(model, xs[0]);
    // CHECK: [[@LINE+1]]:5: reaches=none
    probe_eval_reaches();
  }
}

// Freezing a module's parameters; a part of it; another module.
void freezing(Net &model, Net &other) {
  for (auto &p : model->backbone->parameters())
    p.requires_grad_(false);
  // CHECK: [[@LINE+1]]:3: frozen=yes
  probe_frozen(*model->backbone);
  // CHECK: [[@LINE+1]]:3: frozen=yes
  probe_frozen(*model);
  // CHECK: [[@LINE+1]]:3: frozen=no
  probe_frozen(*model->head);
  // CHECK: [[@LINE+1]]:3: frozen=no
  probe_frozen(*other);
}

// Frozen where the probe runs: the last loop over the parameters before it
// that sets requires_grad sets it to false, on every path; a toggling
// macro's constant branch counts, a condition of the program's does not.
#define GRAD_TOGGLE(net, on)                                                   \
  if (on) {                                                                    \
    for (auto &p : net->parameters())                                          \
      p.requires_grad_(true);                                                  \
  } else {                                                                     \
    for (auto &p : net->parameters())                                          \
      p.requires_grad_(false);                                                 \
  }

void frozen_here(Net &model, Net &other, bool quiet) {
  // CHECK: [[@LINE+1]]:3: frozen-here=no
  probe_frozen_here(*model);
  for (auto &p : model->parameters())
    p.requires_grad_(false);
  // CHECK: [[@LINE+1]]:3: frozen-here=yes
  probe_frozen_here(*model);
  // CHECK: [[@LINE+1]]:3: frozen-here=yes
  probe_frozen_here(*model->head);
  // CHECK: [[@LINE+1]]:3: frozen-here=no
  probe_frozen_here(*other);
  for (auto &p : model->head->parameters())
    p.set_requires_grad(true);
  // Part of it records again.
  // CHECK: [[@LINE+1]]:3: frozen-here=no
  probe_frozen_here(*model);
  GRAD_TOGGLE(model, false);
  // CHECK: [[@LINE+1]]:3: frozen-here=yes
  probe_frozen_here(*model);
  GRAD_TOGGLE(model, true);
  // CHECK: [[@LINE+1]]:3: frozen-here=no
  probe_frozen_here(*model);
  if (quiet) {
    for (auto &p : other->parameters())
      p.requires_grad_(false);
  }
  // Only on some paths.
  // CHECK: [[@LINE+1]]:3: frozen-here=no
  probe_frozen_here(*other);
  {
    for (auto &p : other->backbone->parameters())
      p.requires_grad_(false);
    // Only a part of it.
    // CHECK: [[@LINE+1]]:5: frozen-here=no
    probe_frozen_here(*other);
    // CHECK: [[@LINE+1]]:5: frozen-here=yes
    probe_frozen_here(*other->backbone);
  }
}
