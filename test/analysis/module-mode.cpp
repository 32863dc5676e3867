// Is the module of a forward pass in evaluation mode where it runs?
// RUN: %analysis_dump %s -- %mock_torch | sort -t: -k1,1n | FileCheck %s -implicit-check-not=eval=

#include <torch/torch.h>

void probe_eval(const torch::Tensor &);

void paths(torch::nn::Linear &model, torch::nn::Linear &other,
           const torch::Tensor &x, bool flag) {
  // CHECK: [[@LINE+1]]:3: eval=none
  probe_eval(model(x));
  model->eval();
  // CHECK: [[@LINE+1]]:3: eval=[[@LINE-1]]
  probe_eval(model(x));
  // Another module's mode says nothing about this one.
  // CHECK: [[@LINE+1]]:3: eval=none
  probe_eval(other(x));
  if (flag)
    model->train();
  // On one path only.
  // CHECK: [[@LINE+1]]:3: eval=none
  probe_eval(model(x));
  model->train(false);
  // CHECK: [[@LINE+1]]:3: eval=[[@LINE-1]]
  probe_eval(model(x));
}

// A class that puts its member in evaluation mode once and never back.
struct Detector {
  torch::nn::Linear net{4, 2};
  Detector() { net->eval(); }
  void run(const torch::Tensor &x) {
    // CHECK: [[@LINE+1]]:5: eval=[[@LINE-2]]
    probe_eval(net(x));
  }
};

// ... and one that trains it again.
struct Trainer {
  torch::nn::Linear net{4, 2};
  Trainer() { net->eval(); }
  void fit() { net->train(); }
  void run(const torch::Tensor &x) {
    // CHECK: [[@LINE+1]]:5: eval=none
    probe_eval(net(x));
  }
};

// Evaluation mode set through a helper whose body is in the unit.
void set_eval(torch::nn::Linear &m) { m->eval(); }
void restore(torch::nn::Linear &m) {
  m->eval();
  m->train();
}
void through_helpers(torch::nn::Linear &model, torch::nn::Linear &other,
                     const torch::Tensor &x) {
  set_eval(model);
  // CHECK: [[@LINE+1]]:3: eval=[[@LINE-1]]
  probe_eval(model(x));
  // The helper named another module.
  // CHECK: [[@LINE+1]]:3: eval=none
  probe_eval(other(x));
  // A helper that also trains leaves the module training.
  restore(model);
  // CHECK: [[@LINE+1]]:3: eval=none
  probe_eval(model(x));
}

struct Validator {
  torch::nn::Linear net{4, 2};
  torch::nn::Linear head{2, 2};
  void model_eval() { net->eval(); }
  void validate(const torch::Tensor &x) {
    model_eval();
    // CHECK: [[@LINE+1]]:5: eval=[[@LINE-1]]
    probe_eval(net(x));
    // CHECK: [[@LINE+1]]:5: eval=none
    probe_eval(head(x));
  }
};

// A module handed in as a parameter: its mode on entry is what every call
// site in view leaves it in.
torch::Tensor score_with(torch::nn::Linear &model, const torch::Tensor &x) {
  // CHECK: [[@LINE+1]]:3: eval=[[@LINE+10]]
  probe_eval(model(x));
  return x;
}
torch::Tensor score_mixed(torch::nn::Linear &model, const torch::Tensor &x) {
  // CHECK: [[@LINE+1]]:3: eval=none
  probe_eval(model(x));
  return x;
}
void callers(torch::nn::Linear &model, const torch::Tensor &x) {
  model->eval();
  score_with(model, x);
  score_with(model, x);
  score_mixed(model, x);
  model->train();
  // One call site with the model training: not known to be evaluation.
  score_mixed(model, x);
}

// A member made by a loader of the unit that leaves what it returns in
// evaluation mode: initialised with it, or assigned it where the object is
// made ready.
torch::nn::Linear make_ready(int in) {
  torch::nn::Linear loaded(in, 2);
  loaded->eval();
  return loaded;
}
torch::nn::Linear make_plain(int in) { return torch::nn::Linear(in, 2); }
struct FromLoader {
  torch::nn::Linear net;
  FromLoader() : net(make_ready(4)) {}
  void run(const torch::Tensor &x) {
    // CHECK: [[@LINE+1]]:5: eval=[[@LINE-8]]
    probe_eval(net(x));
  }
};
struct AssignedInSetup {
  torch::nn::Linear net{nullptr};
  void setup() { net = make_ready(4); }
  void run(const torch::Tensor &x) {
    // CHECK: [[@LINE+1]]:5: eval=[[@LINE-16]]
    probe_eval(net(x));
  }
};
// A loader that does not set the mode says nothing.
struct FromPlain {
  torch::nn::Linear net;
  FromPlain() : net(make_plain(4)) {}
  void run(const torch::Tensor &x) {
    // CHECK: [[@LINE+1]]:5: eval=none
    probe_eval(net(x));
  }
};
