// The idioms of real evaluation and serving code: what
// torch-eval-without-grad-guard must flag there, and the correct look-alikes
// it must leave alone.
// RUN: %check_torch_tidy %s torch-eval-without-grad-guard %t
// RUN: %check_torch_tidy --std=c++20 %s torch-eval-without-grad-guard %t.cxx20

#include <torch/torch.h>
#include <any>
#include <torch/script.h>
#include <functional>
#include <future>
#include <iostream>
#include <map>
#include <string>
#include <thread>
#include <utility>
#include <vector>

// A minimal stand-in for googletest's TEST macro: the body becomes the
// TestBody() of a class derived from testing::Test.
namespace testing {
class Test {
public:
  virtual ~Test() = default;
  virtual void TestBody() = 0;
};
} // namespace testing
#define TEST(Suite, Name)                                                      \
  class Suite##_##Name##_Test : public ::testing::Test {                       \
    void TestBody() override;                                                  \
  };                                                                           \
  void Suite##_##Name##_Test::TestBody()

// A thread pool as projects write them.
class ThreadPool {
public:
  void enqueue(std::function<void()> task);
};

// ---- Flagged ----------------------------------------------------------------

// A prediction that returns the forward's result, which no caller
// differentiates.
torch::Tensor predict_scores(torch::nn::Linear &model, const torch::Tensor &x) {
  return model(x).softmax(-1);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode, so every call records an autograd graph and keeps its activations alive as long as the outputs [torch-eval-without-grad-guard]
  // CHECK-FIXES: torch::Tensor predict_scores(torch::nn::Linear &model, const torch::Tensor &x) {
  // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
}
void report_scores(torch::nn::Linear &model, const torch::Tensor &x) {
  auto scores = predict_scores(model, x);
  (void)scores.max().item<float>();
}

torch::Tensor act(torch::nn::Linear &policy, const torch::Tensor &observation) {
  return policy(observation).argmax(-1);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: the model runs forward in evaluation code
  // CHECK-FIXES: torch::Tensor act(torch::nn::Linear &policy, const torch::Tensor &observation) {
  // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
}

// Inference in main() after eval(), in a block of its own: the guard the
// fix adds covers that block, not the end of main, so the functions of this
// file that nothing calls are still judged as entered with grad mode on
// (torch-eval-without-grad-guard-uncalled-in-program.cpp).
int main() {
  {
    torch::nn::Linear model(4, 2);
    model->eval();
    // CHECK-FIXES: model->eval();
    // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
    for (int i = 0; i < 10; ++i) {
      auto y = model(torch::ones({1, 4}));
      // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: the model runs forward in evaluation code
      (void)y;
    }
  }
  return 0;
}

// A class that puts its module in evaluation mode once and never back.
struct Detector {
  torch::nn::Linear net{4, 2};
  Detector() { net->eval(); }
  torch::Tensor detect(const torch::Tensor &image) {
    auto out = net(image);
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: the model runs forward in evaluation code
    // CHECK-MESSAGES: :[[@LINE-4]]:16: note: evaluation mode is set here, and the class never sets it back to training
    // CHECK-FIXES: torch::Tensor detect(const torch::Tensor &image) {
    // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
    return out.argmax(1);
  }
};

// A servable whose module is made by a loader that leaves it in evaluation
// mode: the member initialised with what the loader returns, or assigned it.
std::string to_json(const c10::IValue &value); // defined elsewhere
struct Servable {
  explicit Servable(const std::string &path) : servable(load_servable(path)) {}
  virtual ~Servable() = default;
  virtual std::string run_inference(const c10::IValue &input) {
    return to_json(servable.forward({input}));
    // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: the model runs forward in evaluation code
    // CHECK-MESSAGES: :[[@LINE+6]]:5: note: evaluation mode is set here, and the class never sets it back to training{{$}}
    // CHECK-FIXES: virtual std::string run_inference(const c10::IValue &input) {
    // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
  }
  virtual torch::jit::script::Module load_servable(const std::string &path) {
    auto module = torch::jit::load(path);
    module.eval();
    return module;
  }
  torch::jit::script::Module servable;
};
struct Reloading {
  torch::jit::Module module;
  static torch::jit::Module ready(const std::string &path) {
    torch::jit::Module loaded = torch::jit::load(path);
    loaded.eval();
    return loaded;
  }
  void load(const std::string &path) { module = ready(path); }
  float score(const torch::Tensor &request) {
    auto out = module.forward({request}).toTensor();
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: the model runs forward in evaluation code
    // CHECK-MESSAGES: :[[@LINE-7]]:5: note: evaluation mode is set here, and the class never sets it back to training{{$}}
    // CHECK-FIXES: float score(const torch::Tensor &request) {
    // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
    return out.sum().item<float>();
  }
};
// A loader that leaves the module as it was loaded says nothing of its mode.
struct AsLoaded {
  torch::jit::Module module;
  static torch::jit::Module open(const std::string &path) {
    return torch::jit::load(path);
  }
  explicit AsLoaded(const std::string &path) : module(open(path)) {}
  torch::Tensor scores(const torch::Tensor &request) {
    return module.forward({request}).toTensor();
  }
};

struct Server {
  torch::jit::Module module;
  void load(const std::string &path) {
    module = torch::jit::load(path);
    module.eval();
  }
  std::vector<float> handle(const torch::Tensor &request) {
    auto out = module.forward({request}).toTensor();
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: the model runs forward in evaluation code
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: evaluation mode is set here, and the class never sets it back to training ('load' is taken to make the object ready by its name: option ReadyMethods)
    // CHECK-FIXES: std::vector<float> handle(const torch::Tensor &request) {
    // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
    return {out.sum().item<float>()};
  }
};

// Guards are per thread: a guard in the code that starts a thread does not
// reach the thread.
double evaluate_parallel(torch::nn::Linear &model, const std::vector<torch::Tensor> &batches) {
  torch::NoGradGuard no_grad;
  std::vector<std::thread> workers;
  for (const auto &batch : batches)
    workers.emplace_back([&model, batch] {
      auto out = model(batch);
      // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: the model runs forward on another thread with no torch::NoGradGuard or c10::InferenceMode of its own: grad mode is thread-local, so the guard or evaluation mode of the code that starts the thread does not apply
      // CHECK-FIXES: workers.emplace_back([&model, batch] {
      // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
      (void)out;
    });
  for (auto &worker : workers)
    worker.join();
  return 0;
}

void serve_async(torch::nn::Linear &model, const torch::Tensor &x) {
  c10::InferenceMode guard;
  auto future = std::async(std::launch::async, [&] {
    return model(x).sum().item<double>();
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: the model runs forward on another thread
    // CHECK-FIXES: auto future = std::async(std::launch::async, [&] {
    // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
  });
  (void)future.get();
}

void validate_in_pool(torch::nn::Linear &model, ThreadPool &pool, const torch::Tensor &x) {
  model->eval();
  pool.enqueue([&] {
    auto y = model(x);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: the model runs forward on another thread
    // CHECK-FIXES: pool.enqueue([&] {
    // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
    (void)y;
  });
}

// A helper lambda run in evaluation code.
void score_all(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs) {
  model->eval();
  // CHECK-FIXES: model->eval();
  // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
  auto score = [&](const torch::Tensor &x) { return model(x).max().item<float>(); };
  // CHECK-MESSAGES: :[[@LINE-1]]:53: warning: the model runs forward in evaluation code
  for (const auto &x : xs)
    (void)score(x);
}

// A method of the agent's own module, defined in another file, run on the
// observation: it runs the module's layers as its forward does.
struct GaussianActor : torch::nn::Module {
  torch::nn::Linear fc{4, 2};
  std::pair<torch::Tensor, torch::Tensor> sampleNormal(torch::Tensor state, bool reparameterize);
  torch::Tensor weightNorm() const;
  torch::Tensor scaled(const torch::Tensor &x) { return x * 2; }
};
struct SoftActorCritic {
  GaussianActor actorNet;
  torch::Tensor chooseAction(torch::Tensor observation) {
    // CHECK-FIXES: torch::Tensor chooseAction(torch::Tensor observation) {
    // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
    auto outputActor = actorNet.sampleNormal(observation, false);
    // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: the model runs forward in evaluation code
    return outputActor.first.detach();
  }
};

// A shape probe run once at the top of the training function: the variable
// that holds its output keeps the graph alive through the whole training
// loop. A guard there would stop training from recording: no fix.
void train_with_probe(torch::nn::Linear &encoder, torch::optim::SGD &optimizer,
                      const std::vector<torch::Tensor> &batches) {
  torch::Tensor x = torch::randn({1, 4});
  torch::Tensor y = encoder->forward(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: the model runs forward once with no torch::NoGradGuard or c10::InferenceMode and its result is only read as numbers or detached, so it records an autograd graph and keeps its activations alive as long as the output [torch-eval-without-grad-guard]
  // CHECK-MESSAGES: :[[@LINE-2]]:21: note: its result is only read as numbers or detached, but 'y' keeps its graph alive through the training that follows, until 'train_with_probe' returns; run it under a guard in a block of its own
  // CHECK-FIXES: torch::Tensor y = encoder->forward(x);
  std::cout << y.sizes() << std::endl;
  for (const auto &batch : batches) {
    // CHECK-MESSAGES: :[[@LINE-1]]:3: note: the training loop starts here
    optimizer.zero_grad();
    encoder->forward(batch).pow(2).mean().backward();
    optimizer.step();
  }
}

// A PPO update: the critic's values over the whole rollout, computed once
// before the epochs and read only detached (the advantages, the clipped
// value target), keep their graph through every epoch of the update. The
// critic is a method of the model out of view (`Critic_Forward`).
struct RolloutCritic : torch::nn::Module {
  torch::Tensor Critic_Forward(torch::Tensor &input);
  torch::Tensor Evaluate(torch::Tensor &input);
};
void ppo_update(RolloutCritic &ac, torch::optim::Adam &optimizer,
                torch::Tensor states, torch::Tensor returns) {
  torch::Tensor values = ac.Critic_Forward(states);
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: the model runs forward once with no torch::NoGradGuard or c10::InferenceMode and its result is only read as numbers or detached
  // CHECK-MESSAGES: :[[@LINE-2]]:26: note: its result is only read as numbers or detached, but 'values' keeps its graph alive through the training that follows, until 'ppo_update' returns; run it under a guard in a block of its own
  torch::Tensor advantages = returns - values.detach();
  for (int epoch = 0; epoch < 4; ++epoch) {
    // CHECK-MESSAGES: :[[@LINE-1]]:3: note: the training loop starts here
    auto predicted = ac.Evaluate(states);
    auto clipped = values.detach() +
                   (predicted - values.detach()).clamp(-0.2, 0.2);
    auto loss = (clipped - returns).pow(2).mean() - advantages.mean();
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
}

// A model's helper methods that return what its own forward computes
// (`Actor_Forward`, `Critic_Forward`) are the model's forward by other
// names: the caller decides. The update differentiates the critic's values;
// the step that bootstraps the last reward reads them only detached, and is
// reported at its call of the helper.
struct HelperActorCritic : torch::nn::Module {
  torch::nn::Linear actor{8, 4}, critic{8, 1};
  torch::Tensor Actor_Forward(torch::Tensor &input) {
    torch::Tensor probs = actor->forward(input);
    probs = torch::softmax(probs, -1);
    return probs;
  }
  torch::Tensor Critic_Forward(torch::Tensor &input) {
    return critic->forward(input);
  }
  torch::Tensor Evaluate(torch::Tensor &states) {
    return Actor_Forward(states).log() + Critic_Forward(states);
  }
  void bootstrapLastReward(torch::Tensor &next_state,
                           std::vector<torch::Tensor> &rewards, double gamma) {
    torch::Tensor next_value = Critic_Forward(next_state);
    // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode
    // CHECK-FIXES: std::vector<torch::Tensor> &rewards, double gamma) {
    // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
    rewards.back() = rewards.back() + gamma * next_value.detach();
  }
};
// A helper built on another helper (a sampling step that adds noise to
// what `forward_impl` returns) is the model's forward by another name too:
// the rollout step that reads only the action's value is reported at its
// call, and the update that differentiates the sample is training.
struct SquashedActor : torch::nn::Module {
  torch::nn::Linear body{3, 8}, mean{8, 1};
  std::pair<torch::Tensor, torch::Tensor> forward_impl(const torch::Tensor &x) {
    torch::Tensor h = torch::relu(body->forward(x));
    return {mean->forward(h), h};
  }
  std::pair<torch::Tensor, torch::Tensor> sample(const torch::Tensor &state) {
    auto out = forward_impl(state);
    torch::Tensor a = torch::tanh(out.first + torch::randn_like(out.first));
    return {a, a.sum(1, true)};
  }
};
double rollout_step(SquashedActor &actor, const torch::Tensor &state) {
  auto action = actor.sample(state.unsqueeze(0));
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode
  // CHECK-FIXES: double rollout_step(SquashedActor &actor, const torch::Tensor &state) {
  // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
  return action.first.item<double>();
}
double actor_step(SquashedActor &actor, const torch::Tensor &states,
                  torch::optim::Adam &optimizer) {
  auto [a, logp] = actor.sample(states);
  torch::Tensor loss = logp.mean() - a.mean();
  optimizer.zero_grad();
  loss.backward();
  optimizer.step();
  return loss.item<double>();
}

// A method of the model that returns only what it cuts from its forward's
// output (the tokens a greedy decoder picks) is no forward by another name:
// it is judged itself.
struct TokenDecoder : torch::nn::Module {
  torch::nn::Linear proj{4, 8};
  torch::Tensor greedy(const torch::Tensor &x, int steps) {
    torch::Tensor tokens = torch::zeros({1, 1}, torch::kLong);
    for (int i = 0; i < steps; ++i) {
      auto logits = proj->forward(x);
      // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode
      // CHECK-FIXES: torch::Tensor greedy(const torch::Tensor &x, int steps) {
      // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
      tokens = torch::cat({tokens, logits.argmax(-1, true)}, 1);
    }
    return tokens;
  }
};

void update_helpers(HelperActorCritic &ac, torch::optim::Adam &optimizer,
                    torch::Tensor states) {
  for (int epoch = 0; epoch < 4; ++epoch) {
    auto loss = ac.Evaluate(states).mean();
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
}

// The same with the training step factored into a function of the unit
// (`train_step` runs the backward pass and the optimizer step): the loop
// that calls it trains.
float train_step(torch::nn::Linear &encoder, torch::optim::SGD &optimizer,
                 const torch::Tensor &batch) {
  optimizer.zero_grad();
  auto loss = encoder->forward(batch).pow(2).mean();
  loss.backward();
  optimizer.step();
  return loss.item<float>();
}
float train_with_probe_and_step(torch::nn::Linear &encoder,
                                torch::optim::SGD &optimizer,
                                const std::vector<torch::Tensor> &batches) {
  torch::Tensor y = encoder->forward(torch::randn({1, 4}));
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: the model runs forward once with no torch::NoGradGuard or c10::InferenceMode and its result is only read as numbers or detached
  // CHECK-MESSAGES: :[[@LINE-2]]:21: note: its result is only read as numbers or detached, but 'y' keeps its graph alive through the training that follows, until 'train_with_probe_and_step' returns; run it under a guard in a block of its own
  std::cout << y.sizes() << std::endl;
  float total = 0;
  for (const auto &batch : batches)
    // CHECK-MESSAGES: :[[@LINE-1]]:3: note: the training loop starts here
    total += train_step(encoder, optimizer, batch);
  return total;
}

// A GAN's discriminator probed once for the sizes of its two outputs, which
// build the labels the training loop compares against: the labels are new
// tensors made from numbers, so the probe's graph is still only held.
struct PatchDiscImpl : torch::nn::Module {
  torch::nn::Linear adv{4, 1}, cls{4, 3};
  std::pair<torch::Tensor, torch::Tensor> forward(const torch::Tensor &x) {
    return {adv(x), cls(x)};
  }
};
TORCH_MODULE(PatchDisc);
void train_gan_with_probe(PatchDisc &discriminator, torch::optim::Adam &optimizer,
                          const std::vector<torch::Tensor> &batches) {
  auto result = discriminator(batches.front());
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: the model runs forward once with no torch::NoGradGuard or c10::InferenceMode and its result is only read as numbers or detached
  // CHECK-MESSAGES: :[[@LINE-2]]:17: note: its result is only read as numbers or detached, but 'result' keeps its graph alive through the training that follows, until 'train_gan_with_probe' returns; run it under a guard in a block of its own
  auto adv_size = result.first.sizes();
  auto fake_label = torch::zeros(adv_size);
  for (const auto &batch : batches) {
    // CHECK-MESSAGES: :[[@LINE-1]]:3: note: the training loop starts here
    optimizer.zero_grad();
    (discriminator(batch).first - fake_label).pow(2).mean().backward();
    optimizer.step();
  }
}

// Named values passed between layers (`std::map<std::string, std::any>`):
// a value put into a pack that the function returns leaves it with its
// type erased, and is not followed further (whoever reads the pack may
// differentiate it); one put into a pack of the function's own frame is
// followed as before.
using AnyPack = std::map<std::string, std::any>;
torch::Tensor position_bias(torch::nn::Linear &bias, int64_t n) {
  return bias->forward(torch::ones({n, 4})).unsqueeze(0);
}
AnyPack attention(torch::nn::Linear &bias, const torch::Tensor &scores) {
  AnyPack output;
  auto b = position_bias(bias, scores.size(1));
  output["position_bias"] = b;
  output["result"] = scores + b;
  return output;
}
float decode_score(torch::nn::Linear &model, const torch::Tensor &x) {
  auto h = model->forward(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: the model runs forward in evaluation code
  // CHECK-FIXES: float decode_score(torch::nn::Linear &model, const torch::Tensor &x) {
  // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
  AnyPack args = {{"input", h}};
  return std::any_cast<torch::Tensor>(args["input"]).sum().item<float>();
}

// A loop that takes derivatives with torch::autograd::grad (a Jacobian,
// column by column, through a helper of the unit) updates no parameter: it
// is not the training that a probe's graph would be kept through.
torch::Tensor column_of(const torch::Tensor &output, const torch::Tensor &x,
                        int64_t column) {
  return torch::autograd::grad({output.select(1, column).sum()}, {x})[0];
}
std::vector<torch::Tensor> jacobian(torch::nn::Linear &model,
                                    const torch::Tensor &x) {
  auto probe = model->forward(x);
  std::cout << probe.sizes() << std::endl;
  std::vector<torch::Tensor> columns;
  for (int64_t column = 0; column < 4; ++column) {
    auto output = model->forward(x);
    columns.push_back(column_of(output, x, column));
  }
  return columns;
}

// A helper whose every caller in view puts the model it is handed in
// evaluation mode first: the helper's forward is evaluation code, whatever
// its name.
torch::Tensor respond(torch::nn::Linear &model, const torch::Tensor &request) {
  return model->forward(request).softmax(-1);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: the model runs forward in evaluation code
  // CHECK-MESSAGES: :[[@LINE+7]]:3: note: evaluation mode is set here, and every call of 'respond' in view is made with the model in that mode
  // CHECK-FIXES: torch::Tensor respond(torch::nn::Linear &model, const torch::Tensor &request) {
  // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
}

void answer_requests(torch::nn::Linear &model,
                     const std::vector<torch::Tensor> &requests) {
  model->eval();
  for (const auto &request : requests)
    std::cout << respond(model, request).argmax().item<int64_t>() << "\n";
}

// ---- Not flagged ------------------------------------------------------------

// A unit test that runs the model once keeps nothing past the test.
TEST(LinearTest, Forward) {
  torch::nn::Linear model(4, 2);
  auto y = model(torch::ones({1, 4}));
  (void)y;
}
TEST(LinearTest, EvalMode) {
  torch::nn::Linear model(4, 2);
  model->eval();
  auto y = model(torch::ones({1, 4}));
  (void)y;
}
// A helper of the tests, called once from each test that uses it: its
// forward results are only compared, but it runs once per test, not again
// and again.
void check_reverse_forward(bool twice) {
  torch::nn::Linear model(4, 2);
  auto output = model(torch::ones({1, 4}));
  auto reversed = model(torch::ones({1, 4}));
  if (twice)
    (void)reversed.sum().item<float>();
  (void)output.sum().item<float>();
}
TEST(LinearTest, ReverseForward) { check_reverse_forward(false); }
TEST(LinearTest, ReverseForwardTwice) { check_reverse_forward(true); }

// A prediction whose result a caller differentiates: training code.
torch::Tensor predict_logits(torch::nn::Linear &model, const torch::Tensor &x) {
  return model(x);
}
void train_step(torch::nn::Linear &model, const torch::Tensor &x, torch::optim::SGD &optimizer) {
  auto loss = predict_logits(model, x).pow(2).mean();
  optimizer.zero_grad();
  loss.backward();
  optimizer.step();
}

// An action whose log-probability is kept for the update.
struct Agent {
  torch::nn::Linear policy{4, 2};
  std::vector<torch::Tensor> log_probs_;
  torch::Tensor act(const torch::Tensor &obs) {
    auto logits = policy(obs);
    log_probs_.push_back(logits.log_softmax(-1).max());
    return logits.argmax(-1);
  }
  void update(torch::optim::Adam &optimizer) {
    auto loss = -torch::stack(log_probs_).sum();
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
    log_probs_.clear();
  }
};

// at::launch carries grad mode over to the thread it runs on.
void evaluate_launch(torch::nn::Linear &model, const torch::Tensor &x) {
  torch::NoGradGuard no_grad;
  at::launch([&] { auto y = model(x); (void)y; });
}

// The thread sets its own guard.
void evaluate_threads_guarded(torch::nn::Linear &model, const torch::Tensor &x) {
  torch::NoGradGuard no_grad;
  std::thread worker([&] {
    torch::NoGradGuard thread_guard;
    auto y = model(x);
    (void)y;
  });
  worker.join();
}

// A class that sets evaluation mode but trains again.
struct Trainer {
  torch::nn::Linear net{4, 1};
  Trainer() { net->eval(); }
  void fit(const torch::Tensor &x, torch::optim::SGD &optimizer) {
    net->train();
    auto loss = net(x).sum();
    loss.backward();
    optimizer.step();
  }
  torch::Tensor features(const torch::Tensor &x) { return net(x); }
};

// A test helper that trains (backward and optimizer step) is not evaluation
// code by its name, also in a template and through a forward lambda.
template <typename Options>
bool test_rnn_converges(torch::nn::Linear &l1, Options options) {
  torch::optim::SGD optimizer(l1->parameters(), options);
  auto forward_op = [&](torch::Tensor x) {
    x = l1->forward(x).tanh_();
    return x;
  };
  float running_loss = 1;
  while (running_loss > 1e-2) {
    auto inputs = torch::rand({5, 4});
    auto loss = torch::mse_loss(forward_op(inputs), inputs);
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
    running_loss = running_loss * 0.99 + loss.template item<float>() * 0.01;
  }
  return true;
}
bool run_test(torch::nn::Linear &l1) { return test_rnn_converges(l1, torch::optim::SGDOptions(0.1)); }

// A module's method other than forward is judged like any function:
// predict() returns indices nothing can differentiate.
struct ClassifierImpl : torch::nn::Module {
  torch::nn::Linear head{4, 3};
  torch::Tensor forward(const torch::Tensor &x) { return head(x); }
  torch::Tensor predict(const torch::Tensor &x) {
    return head(x).argmax(1);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: the model runs forward in evaluation code
    // CHECK-FIXES: torch::Tensor predict(const torch::Tensor &x) {
    // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
  }
};

// Choosing an action with a Q-network only to take its argmax.
struct DQN {
  torch::nn::Linear eval_net{4, 2};
  torch::Tensor choose_action(torch::Tensor x) {
    torch::Tensor action, value;
    if (torch::rand({1}).item<float>() < 0.9) {
      auto actions_value = eval_net->forward(x);
      // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: the model runs forward in evaluation code
      // CHECK-FIXES: torch::Tensor choose_action(torch::Tensor x) {
      // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
      std::tie(value, action) = torch::max(actions_value, 1);
    } else {
      action = torch::randint(0, 2, {1});
    }
    return action;
  }
};

// REINFORCE's select_action keeps the log-probability for the update: its
// forward is training code.
struct Reinforce {
  torch::nn::Linear policy{4, 2};
  std::vector<torch::Tensor> saved_log_probs;
  int64_t select_action(const torch::Tensor &state) {
    auto probs = policy(state).softmax(-1);
    auto action = probs.multinomial(1);
    saved_log_probs.push_back(probs.log().gather(-1, action));
    return action.item<int64_t>();
  }
  void finish_episode(torch::optim::Adam &optimizer) {
    auto loss = -torch::cat(saved_log_probs).sum();
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
    saved_log_probs.clear();
  }
};

// eval() in a method that tests the agent says nothing of the method that
// trains it.
struct Agent2C {
  torch::nn::Linear actor{4, 2};
  void demo(const torch::Tensor &obs) {
    torch::NoGradGuard no_grad;
    actor->eval();
    (void)actor(obs);
  }
  void train(const torch::Tensor &obs, torch::optim::Adam &optimizer) {
    auto loss = actor(obs).sum();
    loss.backward();
    optimizer.step();
  }
  torch::Tensor features(const torch::Tensor &obs) { return actor(obs); }
};

// Methods of a module that run no layer on an input: an accessor handed no
// tensor, and a helper whose body is in view and uses no parameter.
struct ActorUser {
  GaussianActor actor;
  torch::Tensor predict_norm() { return actor.weightNorm(); }
  torch::Tensor predict_scaled(const torch::Tensor &x) { return actor.scaled(x).detach(); }
};

// An actor-critic's get_action_and_value, defined here and called by the
// rollout (under a guard) and the update (with gradients) of another file:
// the name says action, but also value.
struct CriticAgent {
  torch::nn::Linear actor{4, 2}, critic{4, 1};
  std::tuple<torch::Tensor, torch::Tensor, torch::Tensor> getActionAndValueDiscrete(const torch::Tensor &x) {
    auto logits = actor(x);
    auto action = logits.argmax(-1);
    return {action, torch::log_softmax(logits, -1), critic(x)};
  }
  std::tuple<torch::Tensor, torch::Tensor> get_action_and_value(const torch::Tensor &x) {
    return {actor(x), critic(x)};
  }
};

// A probe whose output the training goes on to use: its graph is wanted.
void train_from_first_output(torch::nn::Linear &encoder, torch::optim::SGD &optimizer,
                             const std::vector<torch::Tensor> &batches) {
  torch::Tensor first = encoder->forward(batches.front());
  std::cout << first.sizes() << std::endl;
  for (const auto &batch : batches) {
    optimizer.zero_grad();
    (encoder->forward(batch) - first).pow(2).mean().backward();
    optimizer.step();
  }
}

// A lambda defined before the guard and called only under it runs guarded,
// as a function whose every call is guarded does.
double evaluate_through_lambda(torch::nn::Linear &model,
                               const std::vector<torch::Tensor> &xs) {
  model->eval();
  auto score = [&](const torch::Tensor &x) { return model(x).sum().item<double>(); };
  torch::NoGradGuard no_grad;
  double total = 0;
  for (const auto &x : xs)
    total += score(x);
  return total;
}

// Forces are the gradient of the energy: the forward must record its graph,
// even in evaluation mode.
torch::Tensor forces(torch::nn::Linear &model, torch::Tensor positions) {
  model->eval();
  positions.requires_grad_(true);
  auto energy = model(positions).sum();
  return -torch::autograd::grad({energy}, {positions})[0];
}

// Inference of a class with no evaluation word in its names: a detector's
// Detect() that returns plain boxes, and an agent's greedy step that returns
// an integer. Only numbers leave them, and their callers are out of view:
// evaluation code by use, said so in a note.
struct Box {
  float x1, y1, x2, y2, score;
};
class YoloDetector {
public:
  explicit YoloDetector(const std::string &path) { module_ = torch::jit::load(path); }
  std::vector<Box> Detect(const torch::Tensor &image) {
    std::vector<torch::jit::IValue> inputs{image};
    torch::Tensor out = module_.forward(inputs).toTensor();
    // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode
    // CHECK-MESSAGES: :[[@LINE-2]]:25: note: its result is only read as numbers or detached and dropped in 'Detect': nothing differentiates it
    // CHECK-MESSAGES: :[[@LINE-5]]:20: note: no call of 'Detect' is in view: it is taken to run again and again
    // CHECK-FIXES: std::vector<Box> Detect(const torch::Tensor &image) {
    // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
    std::vector<Box> boxes;
    auto rows = out.select(0, 0);
    for (int64_t i = 0; i < rows.size(0); ++i)
      boxes.push_back({rows[i][0].item<float>(), rows[i][1].item<float>(),
                       rows[i][2].item<float>(), rows[i][3].item<float>(),
                       rows[i][4].item<float>()});
    return boxes;
  }

private:
  torch::jit::Module module_;
};
class GreedyAgent {
public:
  int64_t step(const torch::Tensor &state) {
    auto q = net_->forward(state);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode
    // CHECK-FIXES: int64_t step(const torch::Tensor &state) {
    // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
    return q.argmax(1).item<int64_t>();
  }

private:
  torch::nn::Linear net_{4, 2};
};

// An agent's act() that samples the rollout's action, then trains every
// few steps through a helper of its own (check_train() runs backward() and
// step()): the forward is evaluation code, but a guard at the top of act()
// would also cover the training in check_train(): no fix.
class RolloutAgent {
public:
  int64_t act(const torch::Tensor &state) {
    auto action = actor_->forward(state).argmax().item<int64_t>();
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode
    // CHECK-MESSAGES: :[[@LINE-2]]:19: note: its result is only read as numbers or detached and dropped in 'act'
    // CHECK-FIXES: int64_t act(const torch::Tensor &state) {
    // CHECK-FIXES-NEXT: auto action = actor_->forward(state).argmax().item<int64_t>();
    seen_.push_back(state);
    check_train();
    return action;
  }

private:
  void check_train() {
    if (seen_.size() < 8)
      return;
    optimizer_.zero_grad();
    actor_->forward(torch::stack(seen_)).pow(2).mean().backward();
    optimizer_.step();
    seen_.clear();
  }
  torch::nn::Linear actor_{4, 2};
  torch::optim::SGD optimizer_{actor_->parameters(), torch::optim::SGDOptions(0.1)};
  std::vector<torch::Tensor> seen_;
};

// A step function whose result the caller folds into a long expression
// (an ODE solver's update), returned, and stored into a member by its own
// caller: it leaves the frame, so it is not discarded, however deep in the
// expression the call is.
struct LiquidCell : torch::nn::Module {
  torch::nn::Linear weight{8, 8}, recurrent_weight{8, 8};
  torch::Tensor x_t, a, tau;
  int steps = 3;
  torch::Tensor compute_step(const torch::Tensor &x_curr, const torch::Tensor &i_t) {
    return torch::relu(weight->forward(i_t) + recurrent_weight->forward(x_curr));
  }
  torch::Tensor step(const torch::Tensor &state) {
    x_t = unroll(x_t, state);
    return x_t;
  }
  torch::Tensor unroll(const torch::Tensor &last_x_t, const torch::Tensor &state) {
    const float delta_t = 1.f / static_cast<float>(steps);
    auto curr = last_x_t;
    for (int i = 0; i < steps; i++)
      curr = (curr + delta_t * compute_step(curr, state) * a) /
             (1.f + delta_t * (1.f / tau + compute_step(curr, state)));
    return curr;
  }
};

// Results handed back through an out-parameter (`void f(in, Tensor &out)`)
// or a return value to callers that are all in view: followed into each
// caller, which only reads numbers from them.
class TwoStageDetector {
public:
  std::vector<float> Detect(const torch::Tensor &image) {
    torch::Tensor masks;
    mask_pred(image, masks);
    masks.sigmoid_();
    std::vector<float> areas;
    for (int64_t i = 0; i < masks.size(0); ++i)
      areas.push_back((masks[i] > 0.5).sum().item<float>());
    areas.push_back(box_score(image));
    return areas;
  }
  // Trains on what the helper writes back: not evaluation code.
  void Refine(const torch::Tensor &image, torch::optim::SGD &opt) {
    torch::Tensor masks;
    refine_pred(image, masks);
    masks.sum().backward();
    opt.step();
  }

private:
  void mask_pred(const torch::Tensor &image, torch::Tensor &mask_preds) {
    mask_preds = mask_head_.forward({image}).toTensor().squeeze(0);
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode
    // CHECK-MESSAGES: :[[@LINE-2]]:18: note: its result is only read as numbers or detached and dropped in 'mask_pred' and in the callers it is handed back to (returned, or written into an out-parameter): nothing differentiates it
    // CHECK-MESSAGES: :[[@LINE-23]]:22: note: no call of 'Detect' is in view: it is taken to run again and again
    // CHECK-FIXES: void mask_pred(const torch::Tensor &image, torch::Tensor &mask_preds) {
    // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
  }
  torch::Tensor box_logits(const torch::Tensor &image) {
    return box_head_.forward({image}).toTensor();
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode
    // CHECK-MESSAGES: :[[@LINE-2]]:12: note: its result is only read as numbers or detached and dropped in 'box_logits' and in the callers it is handed back to (returned, or written into an out-parameter): nothing differentiates it
    // CHECK-MESSAGES: :[[@LINE-31]]:22: note: no call of 'Detect' is in view: it is taken to run again and again
    // CHECK-FIXES: torch::Tensor box_logits(const torch::Tensor &image) {
    // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
  }
  float box_score(const torch::Tensor &image) {
    return box_logits(image).max().item<float>();
  }
  void refine_pred(const torch::Tensor &image, torch::Tensor &out) {
    out = refine_head_.forward({image}).toTensor();
  }
  // Virtual: an override's caller may call it through the base, so its
  // callers are not all known.
  virtual void score_pred(const torch::Tensor &image, torch::Tensor &out) {
    out = box_head_.forward({image}).toTensor();
  }
  void Score(const torch::Tensor &image) {
    torch::Tensor s;
    score_pred(image, s);
    std::printf("%f\n", s.sum().item<float>());
  }

  torch::jit::Module mask_head_, box_head_, refine_head_;
};
// A server's loop over a TorchScript module, with no eval() and no
// evaluation name.
int serve(const std::string &path, int requests) {
  torch::jit::script::Module module = torch::jit::load(path);
  int served = 0;
  for (int r = 0; r < requests; ++r) {
    auto y = module.forward({torch::randn({1, 4})}).toTensor();
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode
    // CHECK-FIXES: int serve(const std::string &path, int requests) {
    // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
    std::cout << y.argmax(1).item<int64_t>() << "\n";
    ++served;
  }
  return served;
}

// An agent whose helper sets both networks' mode from a flag: the terminal
// value of an episode is computed after set_eval(true), with no guard, and
// stored detached. After set_eval(false) the critic trains.
struct FlagBuffer {
  std::vector<torch::Tensor> values;
  void update_last(torch::Tensor v) { values.back() = v; }
};
struct FlagAgent {
  torch::nn::Linear actor{nullptr}, critic{nullptr};
  FlagBuffer buffer;
  void set_eval(bool eval) {
    actor->train(!eval);
    critic->train(!eval);
  }
  void done(const torch::Tensor &state);
  torch::Tensor train_value(const torch::Tensor &state);
};

void FlagAgent::done(const torch::Tensor &state) {
  set_eval(true);
  torch::Tensor value = critic->forward(state);
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: the model runs forward in evaluation code
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: evaluation mode is set here
  // CHECK-FIXES: set_eval(true);
  // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
  buffer.update_last(value.detach());
}

torch::Tensor FlagAgent::train_value(const torch::Tensor &state) {
  set_eval(false);
  return critic->forward(state);
}
