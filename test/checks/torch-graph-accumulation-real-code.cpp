// The idioms of real training code: what torch-graph-accumulation must flag
// there, and the correct look-alikes it must leave alone.
// RUN: %check_torch_tidy %s torch-graph-accumulation %t
// RUN: %check_torch_tidy --std=c++20 %s torch-graph-accumulation %t.cxx20

#include <torch/torch.h>
#include <torch/script.h>
#include <functional>
#include <iostream>
#include <tuple>
#include <vector>

// ---- Flagged ----------------------------------------------------------------

// A loss computed by a helper defined in another file: handed history, it
// returns history.
torch::Tensor project_loss(const torch::Tensor &output, const torch::Tensor &target);

void loss_from_another_file(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs) {
  torch::Tensor total = torch::zeros({});
  for (const auto &x : xs)
    total += project_loss(model(x), x);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'total' outlives the iteration and takes on the autograd history of 'project_loss(model(x), x)' every time, so each step's graph and saved activations stay alive and memory grows with every step [torch-graph-accumulation]
    // CHECK-MESSAGES: :[[@LINE-2]]:14: note: 'project_loss' has no body in view and is assumed to return autograd history because it is handed some (option OpaqueCallsPassHistory; the project's function summaries would say for sure)
    // CHECK-FIXES: total += project_loss(model(x), x).detach();
}

struct LossMember {
  std::function<torch::Tensor(torch::Tensor, torch::Tensor)> loss_function;
  torch::Tensor (*criterion)(const torch::Tensor &, const torch::Tensor &) = nullptr;
  torch::nn::Linear model{4, 1};
  void epoch(const std::vector<torch::Tensor> &xs) {
    torch::Tensor sum = torch::zeros({}), other = torch::zeros({});
    for (const auto &x : xs) {
      auto out = model(x);
      sum += loss_function(out, x);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'sum' outlives the iteration and takes on the autograd history of 'loss_function(out, x)'
      // CHECK-MESSAGES: :[[@LINE-2]]:14: note: 'loss_function' has no body in view and is assumed to return autograd history
      // CHECK-FIXES: sum += loss_function(out, x).detach();
      other = other + criterion(out, x);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'other' outlives the iteration and takes on the autograd history of 'criterion(out, x)'
      // CHECK-FIXES: other = other + criterion(out, x).detach();
    }
  }
};

// A member updated in a method the loop calls: reported at the update.
struct Ema {
  torch::Tensor ema_ = torch::zeros({});
  void update(const torch::Tensor &loss) { ema_ = 0.9 * ema_ + 0.1 * loss; }
  // CHECK-MESSAGES: :[[@LINE-1]]:44: warning: 'ema_' outlives the call and takes on the autograd history of '0.1 * loss' every time, so each step's graph and saved activations stay alive
  // CHECK-FIXES: void update(const torch::Tensor &loss) { ema_ = 0.9 * ema_ + (0.1 * loss).detach(); }
};
void track_loss(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs) {
  Ema tracker;
  for (const auto &x : xs)
    tracker.update(model(x).sum());
}

// After backward() in the same iteration, only the graph's nodes are kept.
struct Meter {
  torch::Tensor total_;
  void add(const torch::Tensor &loss) { total_ += loss; }
  // CHECK-MESSAGES: :[[@LINE-1]]:41: warning: 'total_' outlives the call and takes on the autograd history of 'loss' every time; backward() has freed the saved activations, but each step's autograd graph nodes stay alive and host memory grows with every step [torch-graph-accumulation]
  // CHECK-FIXES: void add(const torch::Tensor &loss) { total_ += loss.detach(); }
};
void train_with_meter(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs,
                      torch::optim::SGD &optimizer) {
  Meter meter;
  for (const auto &x : xs) {
    auto loss = model(x).sum();
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
    meter.add(loss);
  }
}

void node_only_local(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs,
                     torch::optim::SGD &optimizer) {
  torch::Tensor running = torch::zeros({});
  for (const auto &x : xs) {
    auto loss = model(x).mean();
    loss.backward();
    optimizer.step();
    running = running + loss;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'running' outlives the iteration and takes on the autograd history of 'loss' every time; backward() has freed the saved activations
    // CHECK-FIXES: running = running + loss.detach();
  }
}

// In-place chains write into their first object.
void in_place_chain(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs) {
  torch::Tensor ema = torch::zeros({});
  for (const auto &x : xs) {
    auto loss = model(x).sum();
    ema.mul_(0.9).add_(loss, 0.1);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'ema' outlives the iteration and takes on the autograd history of 'loss'
    // CHECK-FIXES: ema.mul_(0.9).add_(loss.detach(), 0.1);
  }
}

// Recurrent state carried through a structured binding, std::get, and a
// TorchScript tuple, without detach().
void state_through_binding(torch::nn::GRU &rnn, const std::vector<torch::Tensor> &xs) {
  torch::Tensor hidden = torch::zeros({1, 1, 16});
  for (const auto &x : xs) {
    auto [out, state] = rnn->forward(x, hidden);
    hidden = state;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'hidden' is fed back into the model every iteration, so its autograd history chains all iterations together
    // CHECK-FIXES: auto [out, state] = rnn->forward(x, hidden.detach());
  }
}

void state_through_get(torch::nn::LSTM &lstm, const std::vector<torch::Tensor> &xs) {
  std::tuple<torch::Tensor, torch::Tensor> state{torch::zeros({1, 1, 8}), torch::zeros({1, 1, 8})};
  for (const auto &x : xs) {
    auto result = lstm->forward(x, state);
    state = std::get<1>(result);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'state' is fed back into the model every iteration, so its autograd history chains all iterations together
  }
}

void state_through_forward_as_tuple(torch::nn::LSTM &lstm, const std::vector<torch::Tensor> &xs) {
  torch::Tensor out, h = torch::zeros({1, 1, 8}), c = torch::zeros({1, 1, 8});
  for (const auto &x : xs)
    std::forward_as_tuple(out, std::tie(h, c)) = lstm->forward(x, std::make_tuple(h, c));
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'c' is fed back into the model every iteration, so its autograd history chains all iterations together
    // CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'h' is fed back into the model every iteration, so its autograd history chains all iterations together
    // CHECK-FIXES: std::forward_as_tuple(out, std::tie(h, c)) = lstm->forward(x, std::make_tuple(h.detach(), c.detach()));
}

void scripted_state(torch::jit::Module &module, const std::vector<torch::Tensor> &xs) {
  torch::Tensor hidden = torch::zeros({1, 8});
  for (const auto &x : xs) {
    auto outputs = module.forward({x, hidden}).toTuple();
    hidden = outputs->elements()[1].toTensor();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'hidden' is fed back into the model every iteration, so its autograd history chains all iterations together
  }
}

// An output fed back as the next input of a control loop.
struct Controller {
  torch::nn::Linear policy{8, 4};
  torch::Tensor last_action_ = torch::zeros({1, 4});
  void step(const torch::Tensor &observation) {
    last_action_ = policy(torch::cat({observation, last_action_}, 1));
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'last_action_' is fed back into the model every iteration, so its autograd history chains all iterations together
    // CHECK-FIXES: last_action_ = policy(torch::cat({observation, last_action_.detach()}, 1));
  }
};

void growing_observation(torch::nn::Linear &policy, torch::Tensor obs) {
  for (int t = 0; t < 100; ++t) {
    auto action = policy(obs);
    // CHECK-FIXES: auto action = policy(obs.detach());
    obs = torch::cat({obs, action}, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'obs' is fed back into the model every iteration, so its autograd history chains all iterations together
    // CHECK-FIXES: obs = torch::cat({obs.detach(), action}, 1);
  }
}

// A backward pass walks the running value: detaching what is added would
// change its gradients, so no fix is offered.
void backward_through_total(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs) {
  torch::Tensor total = torch::zeros({});
  for (const auto &x : xs) {
    total = total + model(x).sum();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'total' outlives the iteration and takes on the autograd history of 'model(x).sum()'
    // CHECK-MESSAGES: :[[@LINE-2]]:5: note: no fix: a backward pass walks this graph, so detaching what is stored would change its gradients
    total.backward({}, /*retain_graph=*/true);
  }
}

// A loop that builds its function's result while the model runs in
// evaluation mode: no caller trains on that graph, so each concatenation
// keeps every forward's activations for nothing (one-shot classification by
// the median distance to each class's examples).
torch::Tensor classify_by_median(torch::nn::Linear &model, const torch::Tensor &src,
                                 const std::vector<std::vector<torch::Tensor>> &groups) {
  torch::Tensor scores;
  model->eval();
  size_t count_group = 0;
  for (const auto &group : groups) {
    torch::Tensor buf;
    int count = 0;
    for (const auto &x : group) {
      auto out = model(x - src);
      if (count == 0)
        buf = out;
      else
        buf = torch::cat({buf, out}, 1);
        // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'buf' outlives the iteration and takes on the autograd history of 'out' every time
        // CHECK-FIXES: buf = torch::cat({buf, out.detach()}, 1);
      count++;
    }
    auto median = torch::median(buf).view({1, 1});
    if (count_group == 0)
      scores = median;
    else
      scores = torch::cat({scores, median}, 1);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'scores' outlives the iteration and takes on the autograd history of 'median' every time
      // CHECK-FIXES: scores = torch::cat({scores, median.detach()}, 1);
    count_group++;
  }
  return scores.softmax(1);
}

// A struct of losses computed in the unit: its total carries history (the
// one summed here is flagged), its logged part is detached (not flagged).
struct StepLoss {
  torch::Tensor total, logged;
};
StepLoss step_loss(torch::nn::Linear &model, const torch::Tensor &x) {
  auto loss = model(x).pow(2).mean();
  return {loss, loss.detach()};
}
void log_step_losses(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs,
                     torch::optim::SGD &optimizer) {
  torch::Tensor logged = torch::zeros({});
  torch::Tensor totals = torch::zeros({});
  for (const auto &x : xs) {
    auto step = step_loss(model, x);
    optimizer.zero_grad();
    step.total.backward();
    optimizer.step();
    logged += step.logged;
    totals += step.total;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'totals' outlives the iteration and takes on the autograd history of 'step.total' every time; backward() has freed the saved activations, but each step's autograd graph nodes stay alive and host memory grows with every step [torch-graph-accumulation]
    // CHECK-FIXES: totals += step.total.detach();
  }
}

// A member that one method leaves holding the step's loss, summed by
// another method: the loss carries its graph from one call to the next.
// backward() walked it where it was written, so only the nodes are kept.
class LossTracker {
public:
  void step(torch::nn::Linear &model, const torch::Tensor &x) {
    last_ = model(x).sum();
    last_.backward();
  }
  void log() { total_ += last_; }
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'total_' outlives the call and takes on the autograd history of 'last_' every time; backward() has freed the saved activations, but each step's autograd graph nodes stay alive and host memory grows with every step [torch-graph-accumulation]
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: 'last_' is left holding a tensor that carries autograd history here, in 'step'
  // CHECK-FIXES: void log() { total_ += last_.detach(); }
  torch::Tensor last_, total_;
};
void train_tracked(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs) {
  LossTracker tracker;
  for (const auto &x : xs) {
    tracker.step(model, x);
    tracker.log();
  }
}

// The same member read through a getter, summed in the training loop.
class GetterTrainer {
public:
  void step(torch::nn::Linear &model, const torch::Tensor &x);
  torch::Tensor loss() const { return loss_; }
private:
  torch::Tensor loss_;
};
void train_with_getter(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs) {
  GetterTrainer trainer;
  torch::Tensor epoch_loss = torch::zeros({});
  for (const auto &x : xs) {
    trainer.step(model, x);
    epoch_loss += trainer.loss();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'epoch_loss' outlives the iteration and takes on the autograd history of 'trainer.loss()' every time; backward() has freed the saved activations, but each step's autograd graph nodes stay alive and host memory grows with every step [torch-graph-accumulation]
    // CHECK-FIXES: epoch_loss += trainer.loss().detach();
  }
}

void GetterTrainer::step(torch::nn::Linear &model, const torch::Tensor &x) {
  loss_ = model(x).sum();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: note: 'loss_' is left holding a tensor that carries autograd history here, in 'step'
  loss_.backward();
}

// A training step of the unit that runs backward and returns its loss,
// summed by the loop: the step walked the graph, so only its nodes are
// kept. A step that only computes the loss leaves its activations too.
torch::Tensor train_step(torch::nn::Linear &model, torch::optim::SGD &optimizer,
                         const torch::Tensor &x) {
  optimizer.zero_grad();
  auto loss = model(x).pow(2).mean();
  loss.backward();
  optimizer.step();
  return loss;
}
torch::Tensor forward_loss(torch::nn::Linear &model, const torch::Tensor &x) {
  return model(x).pow(2).mean();
}
void epoch_of_steps(torch::nn::Linear &model, torch::optim::SGD &optimizer,
                    const std::vector<torch::Tensor> &xs) {
  torch::Tensor running = torch::zeros({}), monitored = torch::zeros({});
  for (const auto &x : xs) {
    auto loss = train_step(model, optimizer, x);
    running += loss;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'running' outlives the iteration and takes on the autograd history of 'loss' every time; backward() has freed the saved activations, but each step's autograd graph nodes stay alive
    // CHECK-FIXES: running += loss.detach();
    monitored += forward_loss(model, x);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'monitored' outlives the iteration and takes on the autograd history of 'forward_loss(model, x)' every time, so each step's graph and saved activations stay alive
    // CHECK-FIXES: monitored += forward_loss(model, x).detach();
  }
}

// Per-level pieces of each frame's output gathered across frames: each
// frame's forward is a graph of its own, which the accumulator keeps.
void levels_of_every_frame(torch::nn::Linear &backbone,
                           const std::vector<torch::Tensor> &frames) {
  torch::Tensor all;
  for (const auto &frame : frames) {
    torch::Tensor out = backbone(frame);
    for (int64_t k = 0; k < 3; ++k) {
      torch::Tensor level = out.slice(0, k, k + 1);
      all = k == 0 && !all.defined() ? level : torch::cat({all, level});
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'all' outlives the iteration and takes on the autograd history of 'level' every time
    }
  }
  std::cout << all.sum().item<float>() << std::endl;
}

// Per-level slices that an in-place op fills with another forward's output
// each level: every level adds that forward's graph to what is kept.
void levels_filled_in_place(torch::nn::Linear &head, torch::nn::Linear &refine,
                            const torch::Tensor &x) {
  torch::Tensor pred = head(x);
  torch::Tensor scores;
  for (int64_t k = 0; k < 5; ++k) {
    torch::Tensor layer = pred.slice(0, k * 4, k * 4 + 4).add_(refine(x));
    scores = k == 0 ? layer : torch::cat({scores, layer}, 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'scores' outlives the iteration and takes on the autograd history of 'layer' every time
  }
  std::cout << scores.sum().item<float>() << std::endl;
}

// The same through a chain: squashing the slice first does not make what
// the chain then adds to the output a piece of it.
void levels_squashed_then_filled(torch::nn::Linear &head,
                                 torch::nn::Linear &refine,
                                 const torch::Tensor &x) {
  torch::Tensor pred = head(x);
  torch::Tensor scores;
  for (int64_t k = 0; k < 5; ++k) {
    pred.slice(0, k * 4, k * 4 + 4).sigmoid_().add_(refine(x));
    torch::Tensor layer = pred.slice(0, k * 4, k * 4 + 4);
    scores = k == 0 ? layer : torch::cat({scores, layer}, 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'scores' outlives the iteration and takes on the autograd history of 'layer' every time
  }
  std::cout << scores.sum().item<float>() << std::endl;
}

// ---- Not flagged ------------------------------------------------------------

// Per-level slices of one output concatenated, as a detector's proposal
// step does: the loop hands out pieces of a graph made before it (a member
// the loop does not write, or a local), selected or not, so it adds no
// graph of its own; the result is read after the loop, in this call.
class ProposalHead {
public:
  torch::Tensor proposals(const torch::Tensor &top) {
    torch::Tensor boxes, ids;
    for (int64_t k = 0; k < 5; ++k) {
      torch::Tensor box_layer = box_pred_.slice(0, k * 4, k * 4 + 4);
      if (top.defined())
        box_layer = box_layer.index_select(0, top);
      torch::Tensor id_layer = (torch::ones({box_layer.size(0)}) * k).to(box_layer);
      if (k == 0) {
        boxes = box_layer;
        ids = id_layer;
      } else {
        boxes = torch::cat({boxes, box_layer}, 0);
        ids = torch::cat({ids, id_layer}, 0);
      }
    }
    std::cout << (boxes * ids.unsqueeze(1)).sum().item<float>() << std::endl;
    return {};
  }
  void run(const torch::Tensor &x) { box_pred_ = head_(x); }
  torch::Tensor box_pred_;
  torch::nn::Linear head_{4, 20};
};

// The same with each level's slice squashed in place (`sigmoid_()`,
// `clamp_(0, 1)`): an in-place op that brings no value in leaves the slice
// a piece of the output, and the output is not written by the loop.
void squashed_levels(torch::nn::Linear &head, const torch::Tensor &x,
                     const torch::Tensor &top) {
  torch::Tensor cls_pred = head(x), ctr_pred = head(x);
  torch::Tensor scores, centerness;
  for (int64_t k = 0; k < 5; ++k) {
    torch::Tensor score_layer = cls_pred.slice(0, k * 4, k * 4 + 4).sigmoid_();
    torch::Tensor ctr_layer = ctr_pred.slice(0, k * 4, k * 4 + 4).sigmoid_().clamp_(0, 1);
    if (top.defined())
      ctr_layer = ctr_layer.index_select(0, top);
    if (k == 0) {
      scores = score_layer;
      centerness = ctr_layer;
    } else {
      scores = torch::cat({scores, score_layer}, 0);
      centerness = torch::cat({centerness, ctr_layer}, 0);
    }
  }
  std::cout << (scores * centerness).sum().item<float>() << std::endl;
}


// Gradient accumulation done right: the window is backpropagated and reset
// every k micro-batches.
void accumulation_window(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs,
                         torch::optim::SGD &optimizer) {
  torch::Tensor window = torch::zeros({});
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = model(xs[i]).sum() / 4;
    window = window + loss;
    if ((i + 1) % 4 == 0) {
      window.backward();
      optimizer.step();
      optimizer.zero_grad();
      window = torch::zeros({});
    }
  }
}

void accumulation_window_resets(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs) {
  torch::Tensor a, b, c = torch::zeros({});
  for (size_t i = 0; i < xs.size(); ++i) {
    a += model(xs[i]).sum();
    b += model(xs[i]).sum();
    c.add_(model(xs[i]).sum());
    if ((i + 1) % 8 == 0) {
      (a + b + c).backward();
      a.reset();
      b = torch::Tensor();
      c = torch::zeros({});
    }
  }
}

struct Accumulator {
  torch::nn::Linear model{4, 1};
  torch::Tensor window_;
  void micro_batch(const torch::Tensor &x) { window_ += model(x).sum(); }
  void apply(torch::optim::SGD &optimizer) {
    window_.backward();
    optimizer.step();
    window_ = torch::Tensor();
  }
};

// Truncated backpropagation through time: the state is cut each iteration.
void truncated_bptt(torch::nn::GRU &rnn, torch::nn::Linear &head,
                    const std::vector<torch::Tensor> &xs, torch::optim::SGD &optimizer) {
  torch::Tensor hidden = torch::zeros({1, 1, 16}), h2 = hidden, h3 = hidden;
  for (const auto &x : xs) {
    hidden = hidden.detach();
    h2.detach_();
    torch::Tensor out;
    std::tie(out, hidden) = rnn->forward(x, hidden);
    auto [out2, state2] = rnn->forward(x, h2);
    h2 = state2;
    h3 = std::get<1>(rnn->forward(x, h3.detach()));
    head(out + out2).sum().backward();
    optimizer.step();
  }
}

// A member overwritten from fresh inputs before it is reused.
struct EncoderImpl : torch::nn::Module {
  torch::nn::Linear l1{4, 4}, l2{4, 4};
  torch::Tensor mu_;
  torch::Tensor forward(torch::Tensor x) {
    mu_ = torch::relu(l1(x));
    mu_ = torch::relu(l2(mu_));
    return mu_;
  }
};

// A forward lambda's by-value parameter is fresh on every call.
void forward_lambda(torch::nn::Linear &l1, torch::nn::Linear &l2,
                    const std::vector<torch::Tensor> &xs, torch::optim::SGD &optimizer) {
  auto forward = [&](torch::Tensor x) {
    x = l1->forward(x);
    x = torch::relu(x);
    x = l2->forward(x);
    return x;
  };
  for (const auto &x : xs) {
    auto loss = forward(x).sum();
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
}

// An unrolled decoder: the state carried across the time steps of one
// sequence builds the result its caller backpropagates once.
struct DecoderImpl : torch::nn::Module {
  torch::nn::GRUCell cell{8, 8};
  torch::nn::Linear out{8, 4};
  torch::Tensor forward(torch::Tensor h, int64_t steps) {
    std::vector<torch::Tensor> outputs;
    torch::Tensor input = torch::zeros({1, 8});
    for (int64_t t = 0; t < steps; ++t) {
      h = cell(input, h);
      input = h;
      outputs.push_back(out(h));
    }
    return torch::stack(outputs);
  }
};
torch::Tensor sample(torch::nn::Linear &model, torch::Tensor x, int64_t steps) {
  torch::Tensor sum = torch::zeros_like(x);
  for (int64_t t = 0; t < steps; ++t) {
    x = model(x);
    sum = sum + x;
  }
  return sum;
}

// The same result-building loop in evaluation mode (dropout off), whose
// caller trains on the result: the caller decides.
torch::Tensor rollout_without_dropout(torch::nn::Linear &policy, torch::Tensor x, int64_t steps) {
  policy->eval();
  torch::Tensor log_probs;
  for (int64_t t = 0; t < steps; ++t) {
    x = policy(x);
    log_probs = t == 0 ? x : torch::cat({log_probs, x}, 1);
  }
  return log_probs;
}
void reinforce(torch::nn::Linear &policy, const torch::Tensor &x, torch::optim::SGD &optimizer) {
  auto loss = -rollout_without_dropout(policy, x, 8).sum();
  loss.backward();
  optimizer.step();
}

// Metrics computed elsewhere that return no history.
torch::Tensor accuracy(const torch::Tensor &output, const torch::Tensor &target);
int64_t count_correct(const torch::Tensor &output, const torch::Tensor &target);
void metrics_from_another_file(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs) {
  torch::Tensor acc = torch::zeros({});
  int64_t correct = 0;
  for (const auto &x : xs) {
    auto out = model(x);
    acc += accuracy(out, x);
    correct += count_correct(out, x);
  }
}

// Parameters summed into a norm once per call: a local, no loop around.
double parameter_norm(torch::nn::Linear &model) {
  torch::NoGradGuard no_grad;
  torch::Tensor norm = torch::zeros({});
  for (const auto &p : model->parameters())
    norm += p.pow(2).sum();
  return norm.item<double>();
}

// A module stepped through a sequence one input at a time keeps its state
// between forwards and offers a reset: the caller runs each sequence from a
// reset and backpropagates it.
struct StepLSTMImpl : torch::nn::Module {
  torch::nn::LSTM lstm{torch::nn::LSTMOptions(4, 8)};
  torch::Tensor h_, c_;
  StepLSTMImpl() { reset_state(); }
  void reset_state() {
    h_ = torch::zeros({1, 1, 8});
    c_ = torch::zeros({1, 1, 8});
  }
  torch::Tensor forward(const torch::Tensor &x) {
    auto [output, state] = lstm->forward(x.view({1, 1, 4}), std::make_tuple(h_, c_));
    std::tie(h_, c_) = state;
    return output;
  }
  torch::Tensor forward_sequence(const torch::Tensor &inputs) {
    reset_state();
    std::vector<torch::Tensor> outputs;
    for (int64_t t = 0; t < inputs.size(0); ++t) {
      auto [output, state] = lstm->forward(inputs[t].view({1, 1, 4}), std::make_tuple(h_, c_));
      std::tie(h_, c_) = state;
      outputs.push_back(output);
    }
    return torch::cat(outputs);
  }
};

// A stateful LSTM whose state tuple is fed back on every forward, with a
// method that detaches the state (truncated backpropagation: the trainer
// calls it after each optimizer step). Cutting the history bounds the chain
// as a reset does.
struct StatefulLSTMImpl : torch::nn::Module {
  torch::nn::LSTM lstm{torch::nn::LSTMOptions(4, 8)};
  std::tuple<torch::Tensor, torch::Tensor> hidden{torch::zeros({1, 1, 8}),
                                                 torch::zeros({1, 1, 8})};
  torch::Tensor forward(const torch::Tensor &x) {
    auto out = lstm->forward(x.view({1, 1, 4}), hidden);
    hidden = std::get<1>(out);
    return std::get<0>(out);
  }
  void detach_hidden() {
    std::get<0>(hidden) = std::get<0>(hidden).detach();
    std::get<1>(hidden) = std::get<1>(hidden).detach();
  }
};

// The same with a reset that zeroes each element of the state tuple.
struct ZeroedLSTMImpl : torch::nn::Module {
  torch::nn::LSTM lstm{torch::nn::LSTMOptions(4, 8)};
  std::tuple<torch::Tensor, torch::Tensor> hidden{torch::zeros({1, 1, 8}),
                                                 torch::zeros({1, 1, 8})};
  torch::Tensor forward(const torch::Tensor &x) {
    auto out = lstm->forward(x.view({1, 1, 4}), hidden);
    hidden = std::get<1>(out);
    return std::get<0>(out);
  }
  void reset_hidden() {
    std::get<0>(hidden) = torch::zeros({1, 1, 8});
    std::get<1>(hidden) = torch::zeros({1, 1, 8});
  }
};

// Only one element of the tuple cut: the other keeps the chain.
struct HalfDetachedLSTMImpl : torch::nn::Module {
  torch::nn::LSTM lstm{torch::nn::LSTMOptions(4, 8)};
  std::tuple<torch::Tensor, torch::Tensor> hidden{torch::zeros({1, 1, 8}),
                                                 torch::zeros({1, 1, 8})};
  torch::Tensor forward(const torch::Tensor &x) {
    auto out = lstm->forward(x.view({1, 1, 4}), hidden);
    hidden = std::get<1>(out);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'hidden' is fed back into the model every iteration
    return std::get<0>(out);
  }
  void detach_hidden() { std::get<0>(hidden) = std::get<0>(hidden).detach(); }
};

// The same with one state tensor, detached in place of itself.
struct DetachedCellImpl : torch::nn::Module {
  torch::nn::Linear w{8, 8};
  torch::Tensor x_t = torch::zeros({1, 8});
  torch::Tensor forward(const torch::Tensor &state) {
    x_t = torch::tanh(w(x_t) + state);
    return x_t;
  }
  void truncate() { x_t = x_t.detach(); }
};

// A method that only decays the state keeps its history: the chain goes on.
struct DecayedCellImpl : torch::nn::Module {
  torch::nn::Linear w{8, 8};
  torch::Tensor x_t = torch::zeros({1, 8});
  torch::Tensor forward(const torch::Tensor &state) {
    x_t = torch::tanh(w(x_t) + state);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'x_t' is fed back into the model every iteration
    // CHECK-FIXES: x_t = torch::tanh(w(x_t.detach()) + state);
    return x_t;
  }
  void decay() { x_t = x_t * 0.5; }
};

// The same kind of module stepped by an agent that only reads an action
// from each forward (the episode ends in a reset) and never backpropagates
// the sequence: every call in view drops what the forward returns, so the
// chain grows over the episode for nothing.
struct LiquidCellImpl : torch::nn::Module {
  torch::nn::Linear w{8, 8};
  torch::Tensor x_t;
  LiquidCellImpl() { reset_x(); }
  void reset_x() { x_t = torch::zeros({1, 8}); }
  torch::Tensor forward(const torch::Tensor &state) {
    x_t = torch::tanh(w(x_t) + state);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'x_t' is fed back into the model every iteration
    // CHECK-FIXES: x_t = torch::tanh(w(x_t.detach()) + state);
    return x_t;
  }
};
TORCH_MODULE(LiquidCell);
int64_t run_episode(LiquidCell &cell, const std::vector<torch::Tensor> &states) {
  int64_t moves = 0;
  for (const auto &s : states)
    moves += cell->forward(s).argmax().item<int64_t>();
  // CHECK-MESSAGES: :[[@LINE-1]]:14: note: 'x_t' can be reset, but no call of 'forward' differentiates what it returns (this call reads only numbers from it): nothing walks the chain 'x_t' carries, which grows until the reset
  cell->reset_x();
  return moves;
}

// Stepped the same way by a caller that backpropagates the episode: the
// chain is the sequence's graph, walked once.
struct TrainedCellImpl : torch::nn::Module {
  torch::nn::Linear w{8, 8};
  torch::Tensor x_t;
  TrainedCellImpl() { reset_x(); }
  void reset_x() { x_t = torch::zeros({1, 8}); }
  torch::Tensor step(const torch::Tensor &state) {
    x_t = torch::tanh(w(x_t) + state);
    return x_t;
  }
};
TORCH_MODULE(TrainedCell);
void train_episode(TrainedCell &cell, const std::vector<torch::Tensor> &states) {
  std::vector<torch::Tensor> outs;
  for (const auto &s : states)
    outs.push_back(cell->step(s));
  torch::stack(outs).sum().backward();
  cell->reset_x();
}

// Without a reset, a module's state grows with every forward.
struct StreamImpl : torch::nn::Module {
  torch::nn::GRUCell cell{4, 8};
  torch::Tensor state_;
  StreamImpl() { state_ = torch::zeros({1, 8}); }
  torch::Tensor forward(const torch::Tensor &x) {
    state_ = cell(x, state_);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'state_' is fed back into the model every iteration
    // CHECK-FIXES: state_ = cell(x, state_.detach());
    return state_;
  }
};

// The same with the state kept whole (an LSTM's (h, c) tuple) and read back
// through a local: the write that feeds it back is not a reset of it.
struct TupleStreamImpl : torch::nn::Module {
  torch::nn::LSTM lstm{torch::nn::LSTMOptions(4, 8)};
  std::tuple<torch::Tensor, torch::Tensor> state_{torch::zeros({1, 1, 8}),
                                                  torch::zeros({1, 1, 8})};
  torch::Tensor forward(const torch::Tensor &x) {
    auto out = lstm->forward(x.view({1, 1, 4}), state_);
    state_ = std::get<1>(out);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'state_' is fed back into the model every iteration
    return std::get<0>(out);
  }
};

// One member of an object overwritten from another member of it: no carry.
struct Batch {
  torch::Tensor states, value_predictions;
};
void predict_values(torch::nn::Linear &critic, std::vector<Batch> &batches) {
  for (auto &batch : batches)
    batch.value_predictions = critic(batch.states).squeeze();
}

// A stack of layers run in a loop: a different module each iteration, a graph
// bounded by the depth.
double through_layers(std::vector<torch::nn::Linear> &layers, torch::Tensor x) {
  for (size_t l = 0; l < layers.size(); ++l)
    x = layers[l]->forward(x);
  for (auto &layer : layers)
    x = torch::relu(layer(x)) + x;
  return x.sum().item<double>();
}

// Updating a parameter in place only runs with grad mode off (LibTorch
// refuses it otherwise): a target network's soft update records nothing.
struct SoftUpdate {
  torch::nn::Linear online{4, 1};
  torch::nn::Linear target{4, 1};
  void step(const torch::Tensor &x) {
    target->bias += online(x).sum();
    target->weight.add_(online->weight * 0.01);
  }
};

// A member left detached by the method that writes it: what another method
// sums keeps no graph.
class DetachedTracker {
public:
  void step(torch::nn::Linear &model, const torch::Tensor &x) {
    auto loss = model(x).sum();
    loss.backward();
    last_ = loss.detach();
  }
  void log() { total_ += last_; }
  torch::Tensor last_, total_;
};
void train_detached_tracker(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs) {
  DetachedTracker tracker;
  for (const auto &x : xs) {
    tracker.step(model, x);
    tracker.log();
  }
}

// An update run with grad mode off records nothing: the running value takes
// no history from what it is handed (an accumulator that averages under
// c10::InferenceMode).
struct GuardedMeter {
  torch::Tensor total_;
  void add(torch::Tensor loss) {
    c10::InferenceMode guard(true);
    total_ += loss;
  }
  void scale(torch::Tensor weight) {
    torch::NoGradGuard no_grad;
    total_ /= weight;
  }
};
void train_guarded_meter(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs) {
  GuardedMeter meter;
  for (const auto &x : xs) {
    meter.add(model(x).sum());
    meter.scale(model(x).sum());
  }
}

// An episode's return summed over its steps and returned; the only caller
// prints it. Every step's forward graph is kept for nothing until the
// caller drops the sum.
torch::Tensor episode_return(torch::nn::Linear &critic,
                             const std::vector<torch::Tensor> &states) {
  torch::Tensor total = torch::zeros({});
  for (const auto &s : states)
    total = total + critic(s).sum();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'total' outlives the iteration and takes on the autograd history of 'critic(s).sum()' every time, so each step's graph and saved activations stay alive and memory grows with every step [torch-graph-accumulation]
  // CHECK-FIXES: total = total + critic(s).sum().detach();
  return total;
}
void print_return(torch::nn::Linear &critic, const std::vector<torch::Tensor> &states) {
  // CHECK-MESSAGES: :[[@LINE+1]]:16: note: 'episode_return' returns what the loop gathers, and no caller differentiates it (this call reads only numbers from it): every stored graph is kept for nothing until the result is dropped
  std::cout << episode_return(critic, states).item<double>() << "\n";
}
// The same sum for a caller that trains on it: the caller's graph.
torch::Tensor episode_loss(torch::nn::Linear &actor,
                           const std::vector<torch::Tensor> &states) {
  torch::Tensor total = torch::zeros({});
  for (const auto &s : states)
    total = total + actor(s).pow(2).sum();
  return total;
}
void train_episode(torch::nn::Linear &actor, torch::optim::SGD &opt,
                   const std::vector<torch::Tensor> &states) {
  opt.zero_grad();
  episode_loss(actor, states).backward();
  opt.step();
}

// Parameters grown by densification: the new leaf is built from the old one
// and detached, so what replaces the old value holds no graph, whatever it
// was computed from.
struct Splats {
  torch::Tensor xyz;
  torch::Tensor opacity;
};

void densify(Splats &splats, const std::vector<torch::Tensor> &extra) {
  for (const auto &points : extra) {
    splats.xyz = torch::cat({splats.xyz, points}).detach().requires_grad_(true);
    auto grown = torch::cat({splats.opacity, points.sum(1)});
    splats.opacity = grown.detach().requires_grad_(true);
  }
}
