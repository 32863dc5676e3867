// RUN: %check_torch_tidy %s torch-eval-without-grad-guard %t
// As built against LibTorch 2.x, whose headers need C++20:
// RUN: %check_torch_tidy --std=c++20 %s torch-eval-without-grad-guard %t.cxx20

#include <torch/torch.h>
#include <torch/script.h>
#include <cstdio>
#include <vector>

#define RUN_MODEL(m, x) m(x)

struct Batch {
  torch::Tensor data, target;
};

void keep(const torch::Tensor &); // defined elsewhere

// ---- Flagged ----------------------------------------------------------------

double evaluate(torch::nn::Linear &model, const torch::Tensor &x) {
  auto out = model(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode,
  // CHECK-FIXES: double evaluate(torch::nn::Linear &model, const torch::Tensor &x) {
  // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
  return out.mean().item<double>();
}

double validate(torch::nn::Linear &model, const std::vector<Batch> &batches) {
  double total = 0;
  for (const auto &batch : batches)
    total += torch::mse_loss(model->forward(batch.data), batch.target).item<double>();
    // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode,
    // CHECK-FIXES: double validate(torch::nn::Linear &model, const std::vector<Batch> &batches) {
    // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
  return total;
}

torch::Tensor predict(torch::nn::Sequential &net, const torch::Tensor &x) {
  return net->forward(x).argmax(1);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode,
  // CHECK-FIXES: torch::Tensor predict(torch::nn::Sequential &net, const torch::Tensor &x) {
  // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
}

int test_accuracy(torch::nn::Linear &model, const torch::Tensor &x, const torch::Tensor &y) {
  auto correct = model(x).argmax(1).eq(y).sum();
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode,
  // CHECK-FIXES: int test_accuracy(torch::nn::Linear &model, const torch::Tensor &x, const torch::Tensor &y) {
  // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
  return correct.item<int>();
}

double evaluateModel(torch::nn::Linear &model, const torch::Tensor &x) {
  return model(x).sum().item<double>();
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode,
  // CHECK-FIXES: double evaluateModel(torch::nn::Linear &model, const torch::Tensor &x) {
  // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
}

std::vector<double> inference(torch::jit::Module &module, const torch::Tensor &x) {
  std::vector<double> result;
  auto out = module.forward({x}).toTensor();
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode,
  // CHECK-FIXES: std::vector<double> inference(torch::jit::Module &module, const torch::Tensor &x) {
  // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
  result.push_back(out.sum().item<double>());
  return result;
}

void after_eval_in_a_loop(torch::nn::Linear &model, const std::vector<Batch> &batches,
                          torch::optim::SGD &optimizer) {
  for (int epoch = 0; epoch < 3; ++epoch) {
    model->train();
    for (const auto &batch : batches) {
      optimizer.zero_grad();
      torch::mse_loss(model(batch.data), batch.target).backward();
      optimizer.step();
    }
    model->eval();
    double loss = 0;
    for (const auto &batch : batches)
      loss += torch::mse_loss(model(batch.data), batch.target).item<double>();
      // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode,
      // CHECK-FIXES: model->eval();
      // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
  }
}

int main_like() {
  torch::nn::Linear model(4, 1);
  model->eval();
  auto x = torch::randn({8, 4});
  auto y = model(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode,
  // CHECK-FIXES: model->eval();
  // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
  return y.sum().item<int>();
}

void eval_with_dot(torch::nn::Linear model, const torch::Tensor &x) {
  model.ptr()->eval();
  double s = model->forward(x).sum().item<double>();
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode,
  // CHECK-FIXES: model.ptr()->eval();
  // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
  (void)s;
}

void train_false(torch::nn::Linear &model, const torch::Tensor &x) {
  model->train(false);
  auto out = model(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode,
  // CHECK-FIXES: model->train(false);
  // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
  (void)out;
}

double evaluate_with_temporary_guard(torch::nn::Linear &model, const torch::Tensor &x) {
  torch::NoGradGuard();
  return model(x).sum().item<double>();
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode,
  // The name torch-unnamed-grad-guard's fix would give the temporary is
  // left free, so that both fixes in one run still compile.
  // CHECK-FIXES: double evaluate_with_temporary_guard(torch::nn::Linear &model, const torch::Tensor &x) {
  // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad_2;
}

double evaluate_after_naming_nothing(torch::nn::Linear &model, const torch::Tensor &x) {
  double score = model(x).sum().item<double>();
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode,
  torch::NoGradGuard;
  // Likewise for a statement that names a guard type and builds nothing.
  // CHECK-FIXES: double evaluate_after_naming_nothing(torch::nn::Linear &model, const torch::Tensor &x) {
  // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad_2;
  return score;
}

double evaluate_after_warm_up(torch::nn::Linear &model, const torch::Tensor &x) {
  {
    torch::NoGradGuard guard;
    model(x);
  }
  return model(x).sum().item<double>();
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode,
  // A guard that a variable holds is never renamed: the usual name is free.
  // CHECK-FIXES: double evaluate_after_warm_up(torch::nn::Linear &model, const torch::Tensor &x) {
  // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
}

void eval_then_train_in_one_block(torch::nn::Linear &model, const torch::Tensor &x,
                                  torch::optim::SGD &optimizer) {
  model->eval();
  double score = model(x).sum().item<double>();
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode,
  model->train();
  model(x).sum().backward();
  optimizer.step();
  (void)score;
}

double evaluate_two_calls(torch::nn::Linear &model, const torch::Tensor &x) {
  double a = model(x).sum().item<double>();
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode,
  // CHECK-FIXES: double evaluate_two_calls(torch::nn::Linear &model, const torch::Tensor &x) {
  // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
  double b = model(x).mean().item<double>();
  return a + b;
}

double evaluate_macro(torch::nn::Linear &model, const torch::Tensor &x) {
  return RUN_MODEL(model, x).sum().item<double>();
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode,
  // CHECK-FIXES: double evaluate_macro(torch::nn::Linear &model, const torch::Tensor &x) {
  // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
}

double validation_step(torch::nn::LSTM &lstm, const torch::Tensor &x) {
  auto [out, state] = lstm->forward(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode,
  // CHECK-FIXES: double validation_step(torch::nn::LSTM &lstm, const torch::Tensor &x) {
  // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
  return out.sum().item<double>();
}

// ---- Not flagged ------------------------------------------------------------

double evaluate_guarded(torch::nn::Linear &model, const torch::Tensor &x) {
  torch::NoGradGuard no_grad;
  return model(x).mean().item<double>();
}

double evaluate_inference_mode(torch::nn::Linear &model, const torch::Tensor &x) {
  c10::InferenceMode guard;
  return model(x).mean().item<double>();
}

double evaluate_block_guard(torch::nn::Linear &model, const torch::Tensor &x) {
  double result = 0;
  {
    torch::NoGradGuard no_grad;
    result = model(x).sum().item<double>();
  }
  return result;
}

double evaluate_set_enabled(torch::nn::Linear &model, const torch::Tensor &x) {
  torch::autograd::GradMode::set_enabled(false);
  double r = model(x).sum().item<double>();
  torch::autograd::GradMode::set_enabled(true);
  return r;
}

// An evaluation helper only ever called under its caller's guard.
double score_batch(torch::nn::Linear &model, const torch::Tensor &x) {
  return model(x).sum().item<double>();
}
double test_guarded_caller(torch::nn::Linear &model, const torch::Tensor &x) {
  torch::NoGradGuard no_grad;
  return score_batch(model, x) + score_batch(model, x * 2);
}

// Named like evaluation but really the training forward: the caller
// differentiates the result.
torch::Tensor evaluate_loss(torch::nn::Linear &model, const torch::Tensor &x) {
  return model(x).pow(2).mean();
}
void train_step(torch::nn::Linear &model, const torch::Tensor &x) {
  evaluate_loss(model, x).backward();
}

double validate_and_train(torch::nn::Linear &model, const torch::Tensor &x) {
  auto loss = model(x).sum();
  loss.backward();
  return loss.item<double>();
}

bool test_shapes(const torch::Tensor &x) {
  return x.dim() == 2;
}

void training_after_train(torch::nn::Linear &model, const torch::Tensor &x) {
  model->eval();
  model->train();
  auto out = model(x);
  keep(out); // may be differentiated where it goes
}

void mode_on_some_paths(torch::nn::Linear &model, const torch::Tensor &x, bool quick) {
  if (quick)
    model->eval();
  auto out = model(x);
  keep(out); // may be differentiated where it goes
}

void other_module_in_eval(torch::nn::Linear &teacher, torch::nn::Linear &student,
                          const torch::Tensor &x) {
  teacher->eval();
  auto out = student(x);
  keep(out); // may be differentiated where it goes
}

torch::Tensor test_time_features(torch::nn::Linear &model, const torch::Tensor &x) {
  return model(x);
}
void fine_tune(torch::nn::Linear &model, const torch::Tensor &x) {
  test_time_features(model, x).sum().backward();
}

struct NetImpl : torch::nn::Module {
  torch::nn::Linear fc{4, 1};
  torch::Tensor forward(const torch::Tensor &x) { return fc(x); }
};

double evaluate_threaded(torch::nn::Linear &model, const torch::Tensor &x) {
  torch::NoGradGuard no_grad;
  auto inline_eval = [&] { return model(x).sum().item<double>(); };
  return inline_eval();
}

double evaluate_nolint(torch::nn::Linear &model, const torch::Tensor &x) {
  return model(x).sum().item<double>(); // NOLINT(torch-eval-without-grad-guard)
}

// ---- Evaluation by use: the result is only read as numbers or detached --

struct Agent {
  torch::nn::Linear actor{4, 2};
  torch::Tensor last_logits;
  float choose(const torch::Tensor &state) {
    auto logits = actor(state);
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode,
    // CHECK-MESSAGES: :[[@LINE-2]]:19: note: its result is only read as numbers or detached and dropped in 'choose': nothing differentiates it
    // CHECK-FIXES: float choose(const torch::Tensor &state) {
    // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
    return logits.softmax(-1).multinomial(1).item<float>();
  }
  std::vector<float> record(const torch::Tensor &state) {
    std::vector<float> policy;
    auto out = actor(state);
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: the model runs forward in evaluation code
    for (int i = 0; i < out.size(1); i++)
      policy.push_back(out[0][i].item<float>());
    return policy;
  }
  // Kept in a member: it may be differentiated later.
  void remember(const torch::Tensor &state) { last_logits = actor(state); }
  // Returned with its history: the caller decides.
  torch::Tensor logits_of(const torch::Tensor &state) { return actor(state); }
  // Handed to a function defined elsewhere, which may differentiate it.
  void hand_on(const torch::Tensor &state) { keep(actor(state)); }
  // Differentiated here.
  void learn(const torch::Tensor &state, torch::optim::SGD &opt) {
    auto out = actor(state);
    double seen = out.sum().item<double>();
    out.sum().backward();
    opt.step();
    (void)seen;
  }
};

// A PPO agent's acting step: it keeps a detached log-probability in the
// experience buffer that its update backpropagates through. The detached
// copy takes none of the graph along, so the forward records it for
// nothing.
struct Experience {
  std::vector<torch::Tensor> log_probs;
  std::vector<int> actions;
};
struct PPOAgent {
  static Experience experience;
  static torch::nn::Linear actor;
  int update_action(const torch::Tensor &state) {
    auto probs = actor(state);
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: the model runs forward in evaluation code
    // CHECK-MESSAGES: :[[@LINE-2]]:18: note: its result is only read as numbers or detached and dropped in 'update_action': nothing differentiates it
    // CHECK-FIXES: int update_action(const torch::Tensor &state) {
    // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
    auto action = probs.multinomial(1);
    auto log_prob = torch::log_softmax(probs, 1);
    experience.log_probs.push_back(log_prob.detach());
    experience.actions.push_back(action.item<int>());
    return action.item<int>();
  }
  // Without the detach, the update differentiates what the buffer keeps.
  int act_with_graph(const torch::Tensor &state) {
    auto probs = actor(state);
    experience.log_probs.push_back(torch::log_softmax(probs, 1));
    return probs.multinomial(1).item<int>();
  }
  static void update(torch::optim::SGD &opt) {
    auto loss = -torch::stack(experience.log_probs).sum();
    opt.zero_grad();
    loss.backward();
    opt.step();
    experience.log_probs.clear();
  }
};

int count_errors(torch::nn::Linear &model, const std::vector<Batch> &batches) {
  int errors = 0;
  for (const auto &batch : batches) {
    auto out = model(batch.data);
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: the model runs forward in evaluation code
    errors += out.item<double>() < 0.5;
  }
  return errors;
}

// A smoke test of the shapes, run once: nothing outlives it.
void testNet(torch::nn::Linear &model) {
  auto out = model(torch::ones({1, 4}));
  std::printf("%d\n", static_cast<int>(out.size(0)));
}

// Named a test at its end (`TrainingTest`, `SmokeTest`), run once as well.
void TrainingSmokeTest(torch::nn::Linear &model) {
  auto out = model(torch::ones({1, 4}));
  std::printf("%d\n", static_cast<int>(out.size(0)));
}

// Evaluation mode set by a helper of the class.
struct Validator {
  torch::nn::Linear net{4, 2};
  void model_eval() { net->eval(); }
  double validate_all(const std::vector<Batch> &batches) {
    model_eval();
    double total = 0;
    for (const auto &batch : batches)
      total += summarize(net(batch.data));
    // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: the model runs forward in evaluation code
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: evaluation mode is set here
    // CHECK-FIXES: model_eval();
    // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
    return total;
  }
  double summarize(const torch::Tensor &t);
};

// A preview drawn between training steps: the block trains nothing.
void train_with_preview(torch::nn::Linear &gen, torch::optim::SGD &opt,
                        const std::vector<Batch> &batches, int epochs) {
  for (int epoch = 0; epoch < epochs; ++epoch) {
    for (const auto &batch : batches) {
      opt.zero_grad();
      torch::mse_loss(gen(batch.data), batch.target).backward();
      opt.step();
    }
    if (epoch % 5 == 0) {
      auto noise = torch::randn({1, 4});
      auto sample = gen(noise.detach());
      // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: the model runs forward in evaluation code
      // CHECK-MESSAGES: :[[@LINE-2]]:21: note: its result is only read as numbers or detached and dropped in 'train_with_preview'
      // CHECK-FIXES: if (epoch % 5 == 0) {
      // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
      std::printf("%f\n", sample.mean().item<double>());
    }
  }
}

// The block also adds to a running total of the function's: a guard there
// would cover that too, so there is no fix.
void train_with_side_total(torch::nn::Linear &model, torch::optim::SGD &opt,
                           const std::vector<Batch> &batches) {
  torch::Tensor total = torch::zeros({1});
  for (const auto &batch : batches) {
    {
      auto probe = model(batch.data);
      // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: the model runs forward in evaluation code
      // CHECK-FIXES: {{^    \{$}}
      // CHECK-FIXES-NEXT: auto probe = model(batch.data);
      std::printf("%f\n", probe.mean().item<double>());
      total.add_(batch.target.sum());
    }
    opt.zero_grad();
    torch::mse_loss(model(batch.data), batch.target).backward();
    opt.step();
  }
  std::printf("%f\n", total.item<double>());
}

// A shape probe run once, from the constructor: no evaluation by use.
struct ProbedImpl : torch::nn::Module {
  torch::nn::Linear body{4, 4};
  int64_t width;
  ProbedImpl() : width(output_width()) {}
  int64_t output_width() {
    auto probe = body(torch::zeros({1, 4}));
    return probe.size(1);
  }
};

// Called in a loop of the file: each call records a graph for nothing.
float sample_action(torch::nn::Linear &policy, const torch::Tensor &state) {
  auto logits = policy(state);
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: the model runs forward in evaluation code
  return logits.argmax(-1).item<float>();
}
void rollout(torch::nn::Linear &policy, const std::vector<torch::Tensor> &states) {
  for (const auto &s : states)
    std::printf("%f\n", sample_action(policy, s));
}

// A module whose forward is spelled in PascalCase.
struct ActorCriticImpl : torch::nn::Module {
  torch::nn::Linear pi{4, 2};
  torch::Tensor Forward(const torch::Tensor &x) { return pi(x).softmax(-1); }
};
TORCH_MODULE(ActorCritic);
struct AcerAgent {
  ActorCritic net;
  float PredictAction(const torch::Tensor &state) {
    auto probs = net->Forward(state);
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: the model runs forward in evaluation code
    // CHECK-MESSAGES: :[[@LINE-2]]:18: note: its result is only read as numbers or detached and dropped in 'PredictAction'
    return probs.multinomial(1).item<float>();
  }
};

// What is returned carries no history: the indices of a max, an argmax
// written into a fresh tensor. Callers that store it change nothing.
struct DQN {
  torch::nn::Linear eval_net{4, 2};
  std::vector<torch::Tensor> memory;
  torch::Tensor choose_action(const torch::Tensor &x) {
    torch::Tensor action, values;
    auto q = eval_net->forward(x);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: the model runs forward in evaluation code
    std::tie(values, action) = torch::max(q, 1);
    return action;
  }
  torch::Tensor predict_classes(const torch::Tensor &x) {
    auto out = eval_net->forward(x);
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: the model runs forward in evaluation code
    torch::Tensor prediction = torch::zeros({x.size(0), 1}, torch::kLong);
    prediction.index_put_({torch::indexing::Slice(), 0}, out.argmax(1));
    return prediction;
  }
  void step(const torch::Tensor &x, torch::optim::SGD &opt) {
    memory.push_back(choose_action(x));
    memory.push_back(predict_classes(x));
    auto loss = eval_net->forward(memory.front().to(torch::kFloat)).sum();
    loss.backward();
    opt.step();
  }
};

// A forward left unused next to one whose result is handed on for autograd
// work: a guard at the top would break that work.
torch::Tensor jacobian_column(torch::nn::Linear &model, const torch::Tensor &psi);
void jacobian(torch::nn::Linear &model, const torch::Tensor &x, torch::Tensor &out) {
  auto unused = model(x);
  std::printf("%d\n", static_cast<int>(unused.size(0)));
  for (int i = 0; i < 4; ++i) {
    auto psi = model(x);
    out.index_put_({i}, jacobian_column(model, psi));
  }
}

// Called once per step by a method that runs again and again.
struct Recorder {
  torch::nn::Linear net{4, 2};
  std::vector<float> policy;
  void update_memory(const torch::Tensor &state) {
    auto pred = net(state);
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: the model runs forward in evaluation code
    for (int i = 0; i < pred.size(1); i++)
      policy.push_back(pred[0][i].item<float>());
  }
  void train_step(const torch::Tensor &state, torch::optim::SGD &opt) {
    update_memory(state);
    opt.zero_grad();
    net(state).sum().backward();
    opt.step();
  }
};

// Kept in a private member that only the class reads (the last boxes, drawn
// on the frames until the next detection): nothing differentiates it. The
// twin hands the member out through a getter, and its caller may.
class FrameDetector {
public:
  explicit FrameDetector(torch::nn::Linear net) : net_(net) {}
  int detect(const torch::Tensor &frame) {
    auto out = net_(frame);
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: the model runs forward in evaluation code
    // CHECK-MESSAGES: :[[@LINE-2]]:16: note: its result is only read as numbers or detached in 'detect' and kept in 'boxes_', a private member that only its class reads: nothing differentiates it
    // CHECK-FIXES: int detect(const torch::Tensor &frame) {
    // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
    boxes_ = out.relu();
    return static_cast<int>(boxes_.size(0));
  }
  float first_score() const { return boxes_[0][0].item<float>(); }

private:
  torch::nn::Linear net_;
  torch::Tensor boxes_;
};
class SharingDetector {
public:
  explicit SharingDetector(torch::nn::Linear net) : net_(net) {}
  int detect(const torch::Tensor &frame) {
    auto out = net_(frame);
    boxes_ = out.relu();
    return static_cast<int>(boxes_.size(0));
  }
  const torch::Tensor &boxes() const { return boxes_; }

private:
  torch::nn::Linear net_;
  torch::Tensor boxes_;
};

// Numbers read from the forward, gathered in a local vector and handed to a
// function defined elsewhere: plain numbers carry no history.
void store_transition(const std::vector<float> &policy, int action);
struct Memory {
  torch::nn::Linear net{4, 2};
  void update_memory(const torch::Tensor &state, int action) {
    std::vector<float> policy;
    auto pred = net(state);
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: the model runs forward in evaluation code
    for (int i = 0; i < pred.size(1); i++)
      policy.push_back(pred[0][i].item<float>());
    store_transition(policy, action);
  }
  void train_step(const torch::Tensor &state, torch::optim::SGD &opt) {
    update_memory(state, 0);
    opt.zero_grad();
    net(state).sum().backward();
    opt.step();
  }
};
