// RUN: %check_torch_tidy %s torch-eval-without-grad-guard %t

// A forward whose result nothing differentiates, in a loop whose block also
// trains: an action taken in a rollout that updates the model in the same
// iteration, a second forward on the training batch only to count correct
// answers. It records a graph on every iteration for nothing. A guard in
// that block would also stop the training beside it from recording, so
// there is no fix, and a note says so.

#include <torch/torch.h>
#include <vector>

struct ActorImpl : torch::nn::Module {
  torch::nn::Linear body{4, 2};
  torch::Tensor noise_scale = torch::ones({1});
  torch::Tensor forward(const torch::Tensor &obs) { return body(obs).tanh(); }
  torch::Tensor explore(const torch::Tensor &obs) {
    auto act = forward(obs);
    return act + torch::randn_like(act) * noise_scale;
  }
};
TORCH_MODULE(Actor);

struct Replay {
  torch::Tensor observations = torch::zeros({64, 4});
  torch::Tensor actions = torch::zeros({64, 2});
  int ptr = 0;
  void add(const torch::Tensor &obs, const torch::Tensor &act) {
    observations[ptr % 64].copy_(obs.detach());
    actions[ptr % 64].copy_(act.detach());
    ++ptr;
  }
  torch::Tensor sample_observations() const { return observations; }
};

float env_step(const torch::Tensor &action);

// The action goes to the environment and, cut from the graph, to the
// buffer; the update in the same iteration trains on what the buffer holds.
void rollout_and_update(Actor &actor, Replay &replay, torch::optim::Adam &opt,
                        int steps) {
  for (int t = 0; t < steps; ++t) {
    auto obs = torch::rand({1, 4});
    torch::Tensor actions;
    if (t < 10)
      actions = torch::rand({1, 2});
    else
      actions = actor->explore(obs);
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: the model runs forward in evaluation code
    // CHECK-MESSAGES: :[[@LINE-2]]:17: note: its result is only read as numbers or detached and dropped in 'rollout_and_update'
    // CHECK-MESSAGES: :[[@LINE-6]]:5: note: no fix: a guard in this block would also cover the training beside it; run the forward under a guard in a block of its own
    env_step(actions.cpu());
    replay.add(obs, actions);
    auto loss = -actor->forward(replay.sample_observations()).mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
}

// A second forward on the training batch, only to count correct answers.
int64_t train_and_count(torch::nn::Linear &model, torch::optim::SGD &opt,
                        const std::vector<torch::Tensor> &xs,
                        const std::vector<torch::Tensor> &ys) {
  int64_t correct = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::cross_entropy_loss(model(xs[i]), ys[i]);
    opt.zero_grad();
    loss.backward();
    opt.step();
    auto predicted = model(xs[i]).argmax(1);
    // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: the model runs forward in evaluation code
    // CHECK-MESSAGES: :[[@LINE-2]]:22: note: its result is only read as numbers or detached and dropped in 'train_and_count'
    // CHECK-MESSAGES: :[[@LINE-3]]:5: note: no fix: a guard in this block would also cover the training beside it; run the forward under a guard in a block of its own
    correct += predicted.eq(ys[i]).sum().item<int64_t>();
  }
  return correct;
}

// ---- Not flagged ------------------------------------------------------------

// The action's log-probability is kept and differentiated by the update.
void reinforce(torch::nn::Linear &policy, torch::optim::Adam &opt,
               int episodes) {
  for (int e = 0; e < episodes; ++e) {
    auto logits = policy(torch::rand({1, 4}));
    auto log_prob = logits.log_softmax(-1).select(1, 0);
    float reward = env_step(logits.argmax(-1));
    auto loss = -(log_prob * reward).sum();
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
}

// The target network's value goes into the loss: the training
// differentiates it (detaching it would be right, but it is not dropped).
void td_update(torch::nn::Linear &q, torch::nn::Linear &target,
               torch::optim::Adam &opt, const std::vector<torch::Tensor> &obs) {
  for (const auto &o : obs) {
    auto next = target(o).max();
    auto loss = (q(o).max() - (1.0 + 0.99 * next)).pow(2);
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
}

// The statement that runs the forward trains as well, in its other branch.
void warm_or_train(torch::nn::Linear &model, torch::optim::SGD &opt,
                   const std::vector<torch::Tensor> &xs) {
  for (size_t i = 0; i < xs.size(); ++i) {
    if (i < 4)
      std::printf("%f\n", model(xs[i]).mean().item<double>());
    else {
      opt.zero_grad();
      model(xs[i]).pow(2).mean().backward();
      opt.step();
    }
  }
}

// Under a guard of its own.
void rollout_guarded(Actor &actor, Replay &replay, torch::optim::Adam &opt,
                     int steps) {
  for (int t = 0; t < steps; ++t) {
    auto obs = torch::rand({1, 4});
    torch::Tensor actions;
    {
      torch::NoGradGuard no_grad;
      actions = actor->explore(obs);
    }
    replay.add(obs, actions);
    auto loss = -actor->forward(replay.sample_observations()).mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
}

// A buffer that copies the action as it is, graph and all, into its
// preallocated storage, and an update that differentiates what it holds.
struct KeepingReplay {
  torch::Tensor actions = torch::zeros({64, 2});
  int ptr = 0;
  void add(const torch::Tensor &act) { actions[ptr++ % 64].copy_(act); }
  torch::Tensor sample() const { return actions; }
};
void rollout_keeping(Actor &actor, KeepingReplay &replay,
                     torch::optim::Adam &opt, int steps) {
  for (int t = 0; t < steps; ++t) {
    auto actions = actor->explore(torch::rand({1, 4}));
    replay.add(actions);
    auto loss = replay.sample().pow(2).mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
}


// A language model whose forward writes its loss into an argument, which
// the loop then differentiates: the forward records what training needs.
struct BigramModel : torch::nn::Module {
  torch::nn::Embedding table{65, 65};
  torch::Tensor forward(const torch::Tensor &x, const torch::Tensor &y,
                        torch::Tensor &loss) {
    auto logits = table(x);
    loss = torch::cross_entropy_loss(logits, y);
    return logits;
  }
};
void train_language_model(BigramModel &model, torch::optim::AdamW &opt,
                          const std::vector<torch::Tensor> &xs,
                          const std::vector<torch::Tensor> &ys) {
  for (size_t i = 0; i < xs.size(); ++i) {
    torch::Tensor loss;
    model.forward(xs[i], ys[i], loss);
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
}

// A training step whose forward result nothing reads (its loss line is
// commented out; the losses come from elsewhere): training code left
// unfinished, not evaluation. Its graph lives until the next assignment.
void train_unfinished(torch::nn::Linear &model, torch::optim::SGD &opt,
                      const std::vector<torch::Tensor> &xs,
                      torch::Tensor &loss_a, torch::Tensor &loss_b) {
  torch::Tensor output;
  for (size_t i = 0; i < xs.size(); ++i) {
    output = model(xs[i]);
    // auto loss = criterion(output, ys[i]);
    auto loss = loss_a + loss_b;
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
}

// The same step with the forward's value dropped by its own statement.
void train_dropped(torch::nn::Linear &model, torch::optim::SGD &opt,
                   const std::vector<torch::Tensor> &xs, torch::Tensor &w) {
  for (size_t i = 0; i < xs.size(); ++i) {
    model(xs[i]);
    auto loss = w.pow(2).sum();
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
}

// ---- Flagged again: the output is read after all ---------------------------

void train_and_print(torch::nn::Linear &model, torch::optim::SGD &opt,
                    const std::vector<torch::Tensor> &xs, torch::Tensor &w) {
  torch::Tensor output;
  for (size_t i = 0; i < xs.size(); ++i) {
    output = model(xs[i]);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: the model runs forward in evaluation code
    // CHECK-MESSAGES: :[[@LINE-2]]:14: note: its result is only read as numbers or detached and dropped in 'train_and_print'
    // CHECK-MESSAGES: :[[@LINE-3]]:5: note: no fix: a guard in this block would also cover the training beside it; run the forward under a guard in a block of its own
    auto loss = w.pow(2).sum();
    opt.zero_grad();
    loss.backward();
    opt.step();
    std::printf("%f\n", output.mean().item<double>());
  }
}
