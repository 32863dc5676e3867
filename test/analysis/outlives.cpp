// O: does the target outlive the iteration (or the call)?
// RUN: %analysis_dump %s -- %mock_torch | sort -t: -k1,1n | FileCheck %s -implicit-check-not=outlives=

#include <torch/torch.h>
#include <vector>

void probe_outlives(const torch::Tensor &);
void probe_outlives(const std::vector<torch::Tensor> &);
// With what the write stores, for the rules that look at it.
void probe_outlives(const std::vector<torch::Tensor> &, const torch::Tensor &stored);

torch::Tensor global_tensor;

struct Trainer {
  torch::Tensor member;
  std::vector<torch::Tensor> saved;
  void step() {
    // CHECK: [[@LINE+1]]:5: outlives=call
    probe_outlives(member);
    // CHECK: [[@LINE+1]]:5: outlives=call bounded
    probe_outlives(saved);
  }
  void finish() {
    torch::stack(saved).sum().backward();
    saved.clear();
  }
};

void locals(torch::Tensor &by_ref, torch::Tensor by_value, std::vector<torch::Tensor> &sink) {
  torch::Tensor outside;
  static torch::Tensor kept;
  // CHECK: [[@LINE+1]]:3: outlives=no
  probe_outlives(outside);
  // CHECK: [[@LINE+1]]:3: outlives=call
  probe_outlives(kept);
  // CHECK: [[@LINE+1]]:3: outlives=call
  probe_outlives(by_ref);
  // CHECK: [[@LINE+1]]:3: outlives=call
  probe_outlives(global_tensor);
  for (int i = 0; i < 3; ++i) {
    torch::Tensor inside;
    // CHECK: [[@LINE+1]]:5: outlives=loop
    probe_outlives(outside);
    // CHECK: [[@LINE+1]]:5: outlives=no
    probe_outlives(inside);
    // CHECK: [[@LINE+1]]:5: outlives=loop
    probe_outlives(by_value);
    // CHECK: [[@LINE+1]]:5: outlives=call
    probe_outlives(sink[i]);
    auto &alias = outside;
    // CHECK: [[@LINE+1]]:5: outlives=loop
    probe_outlives(alias);
  }
}

void bounded(torch::nn::Linear &model, const torch::Tensor &x) {
  for (int epoch = 0; epoch < 3; ++epoch) {
    torch::Tensor loss = torch::zeros({});
    for (int t = 0; t < 5; ++t) {
      // CHECK: [[@LINE+1]]:7: outlives=loop bounded
      probe_outlives(loss);
      loss = loss + model(x).sum();
    }
    loss.backward();
  }
  torch::Tensor total = torch::zeros({});
  for (int epoch = 0; epoch < 3; ++epoch) {
    for (int t = 0; t < 5; ++t) {
      // Never reset across epochs: not bounded.
      // CHECK: [[@LINE+1]]:7: outlives=loop{{$}}
      probe_outlives(total);
      total = total + model(x).sum();
    }
    total.backward();
  }
}

// Gradient accumulation: consumed and reset in the same loop.
void window(torch::nn::Linear &model, const torch::Tensor &x) {
  torch::Tensor acc = torch::zeros({});
  for (int i = 0; i < 8; ++i) {
    // CHECK: [[@LINE+1]]:5: outlives=loop bounded
    probe_outlives(acc);
    acc = acc + model(x).sum();
    if (i % 4 == 3) {
      acc.backward();
      acc = torch::zeros({});
    }
  }
}

// A loop that builds its function's result, with no training of its own.
torch::Tensor unroll(torch::nn::Linear &model, torch::Tensor h) {
  std::vector<torch::Tensor> outputs;
  for (int t = 0; t < 5; ++t) {
    h = model(h);
    // CHECK: [[@LINE+1]]:5: outlives=loop bounded
    probe_outlives(outputs);
    outputs.push_back(h);
  }
  return torch::stack(outputs);
}
// The caller decides; the only one in the unit (largest, below) reads a
// number from the result, so every element's graph is kept for nothing.
std::vector<torch::Tensor> gather(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs) {
  std::vector<torch::Tensor> outputs;
  for (const auto &x : xs) {
    // CHECK: [[@LINE+1]]:5: outlives=loop{{$}}
    probe_outlives(outputs);
    outputs.push_back(model(x));
  }
  return outputs;
}
// The same loop with the model in evaluation mode builds no graph for the
// caller: the growth is not bounded on purpose.
std::vector<torch::Tensor> gather_in_eval(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs) {
  std::vector<torch::Tensor> outputs;
  model->eval();
  for (const auto &x : xs) {
    // CHECK: [[@LINE+1]]:5: outlives=loop{{$}}
    probe_outlives(outputs);
    outputs.push_back(model(x));
  }
  return outputs;
}
// In evaluation mode, but a caller in the unit trains on the result: the
// caller decides again.
std::vector<torch::Tensor> gather_for_caller(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs) {
  std::vector<torch::Tensor> outputs;
  model->eval();
  for (const auto &x : xs) {
    // CHECK: [[@LINE+1]]:5: outlives=loop bounded
    probe_outlives(outputs);
    outputs.push_back(model(x));
  }
  return outputs;
}
void train_on_gathered(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs) {
  torch::stack(gather_for_caller(model, xs)).sum().backward();
}
// Slices of a tensor the caller passed, gathered and returned to a caller
// that reads only numbers: each keeps only the caller's graph, which the
// caller holds anyway.
std::vector<torch::Tensor> pieces(const torch::Tensor &flat) {
  std::vector<torch::Tensor> out;
  for (int64_t i = 0; i < 4; ++i) {
    // CHECK: [[@LINE+1]]:5: outlives=loop bounded
    probe_outlives(out, flat.slice(0, i, i + 1));
    out.push_back(flat.slice(0, i, i + 1));
  }
  return out;
}
double first_piece(torch::nn::Linear &model, const torch::Tensor &x) {
  return pieces(model(x))[0].sum().item<double>();
}
// A function that no call in the unit reads: left to callers elsewhere.
std::vector<torch::Tensor> uncalled(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs) {
  std::vector<torch::Tensor> out;
  for (const auto &x : xs) {
    // CHECK: [[@LINE+1]]:5: outlives=loop bounded
    probe_outlives(out, model(x));
    out.push_back(model(x));
  }
  return out;
}
// A struct of tensors, filled field by field and returned whole.
struct Heads {
  std::vector<torch::Tensor> masks, classes;
};
void probe_outlives(const Heads &);
Heads heads(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs) {
  Heads out;
  for (size_t i = 0; i < xs.size(); ++i) {
    // CHECK: [[@LINE+1]]:5: outlives=loop bounded
    probe_outlives(out);
    out.masks.push_back(model(xs[i]));
  }
  return out;
}
double largest(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs) {
  return torch::stack(gather(model, xs)).max().item<double>();
}
double unroll_scalar(torch::nn::Linear &model, torch::Tensor h) {
  torch::Tensor total = torch::zeros({});
  for (int t = 0; t < 5; ++t) {
    // Returned without history: not the caller's graph.
    // CHECK: [[@LINE+1]]:5: outlives=loop{{$}}
    probe_outlives(total);
    total = total + model(h).sum();
  }
  return total.item<double>();
}

// A lambda's by-value parameter is made afresh by every call.
void fresh(torch::nn::Linear &model, const torch::Tensor &x) {
  auto step = [&](torch::Tensor y) {
    // CHECK: [[@LINE+1]]:5: outlives=no
    probe_outlives(y);
    y = model(y);
    return y;
  };
  for (int i = 0; i < 3; ++i)
    step(x);
}

// A by-reference parameter is the caller's object: a function that trains
// nothing leaves what it stores there to its caller ...
void leave_to_caller(std::vector<torch::Tensor> &out, torch::nn::Linear &model,
                     const torch::Tensor &x) {
  // CHECK: [[@LINE+1]]:3: outlives=call bounded
  probe_outlives(out);
  out.push_back(model(x));
}
// ... unless a call site in view hands it an object that outlives its own
// iteration, not cleared before the call.
void kept_by_caller(std::vector<torch::Tensor> &out, torch::nn::Linear &model,
                    const torch::Tensor &x) {
  // CHECK: [[@LINE+1]]:3: outlives=call{{$}}
  probe_outlives(out);
  out.push_back(model(x));
}
void cleared_by_caller(std::vector<torch::Tensor> &out, torch::nn::Linear &model,
                       const torch::Tensor &x) {
  // CHECK: [[@LINE+1]]:3: outlives=call bounded
  probe_outlives(out);
  out.push_back(model(x));
}
void callers(torch::nn::Linear &model, const torch::Tensor &x) {
  std::vector<torch::Tensor> all, latest;
  for (int i = 0; i < 3; ++i) {
    kept_by_caller(all, model, x);
    latest.clear();
    cleared_by_caller(latest, model, x);
  }
}
// A function that trains keeps its losses in the caller's list.
void trains_into(std::vector<torch::Tensor> &losses, torch::nn::Linear &model,
                 const torch::Tensor &x) {
  auto loss = model(x).sum();
  loss.backward();
  // CHECK: [[@LINE+1]]:3: outlives=call{{$}}
  probe_outlives(losses);
  losses.push_back(loss);
}

// Cleared before the store on every iteration: one step's worth at a time.
void cleared_first(torch::nn::Linear &model, const torch::Tensor &x) {
  std::vector<torch::Tensor> latest, some;
  for (int i = 0; i < 3; ++i) {
    latest.clear();
    // CHECK: [[@LINE+1]]:5: outlives=loop bounded
    probe_outlives(latest);
    latest.push_back(model(x));
    if (i % 2 == 0)
      some.clear();
    // CHECK: [[@LINE+1]]:5: outlives=loop{{$}}
    probe_outlives(some);
    some.push_back(model(x));
  }
}

// Per-sample values gathered and stacked into the fields of a returned
// struct: the function builds its result, and the caller decides.
struct Evaluation {
  torch::Tensor logprobs, values;
};
torch::Tensor log_prob_of(const torch::Tensor &mu, const torch::Tensor &a);
Evaluation evaluate_actions(torch::nn::Linear &actor, const torch::Tensor &states,
                            const torch::Tensor &actions) {
  Evaluation result;
  std::vector<torch::Tensor> logprobs;
  auto mu = actor(states);
  for (int64_t i = 0; i < mu.size(0); ++i) {
    // CHECK: [[@LINE+1]]:5: outlives=loop bounded
    probe_outlives(logprobs);
    logprobs.push_back(log_prob_of(mu[i], actions[i]));
  }
  result.logprobs = torch::stack(logprobs);
  result.values = actor(states);
  return result;
}
// Stacked into a field of a struct that is not returned: kept for nothing.
double mean_log_prob(torch::nn::Linear &actor, const torch::Tensor &states,
                     const torch::Tensor &actions, int64_t rows) {
  Evaluation result;
  std::vector<torch::Tensor> logprobs;
  auto mu = actor(states);
  for (int64_t i = 0; i < rows; ++i) {
    // CHECK: [[@LINE+1]]:5: outlives=loop{{$}}
    probe_outlives(logprobs);
    logprobs.push_back(log_prob_of(mu[i], actions[i]));
  }
  result.logprobs = torch::stack(logprobs);
  return result.logprobs.mean().item<double>();
}
// The same over the rows of the one forward's output, counted by its size:
// the loop runs no model, and keeps at most one entry per row of what was
// computed before it (per-image post-processing of a batch).
double mean_row_log_prob(torch::nn::Linear &actor, const torch::Tensor &states,
                         const torch::Tensor &actions) {
  Evaluation result;
  std::vector<torch::Tensor> logprobs;
  auto mu = actor(states);
  for (int64_t i = 0; i < mu.size(0); ++i) {
    // CHECK: [[@LINE+1]]:5: outlives=loop bounded
    probe_outlives(logprobs);
    logprobs.push_back(log_prob_of(mu[i], actions[i]));
  }
  result.logprobs = torch::stack(logprobs);
  return result.logprobs.mean().item<double>();
}
// ... unless the model runs in it.
double mean_row_score(torch::nn::Linear &actor, const torch::Tensor &states) {
  std::vector<torch::Tensor> scores;
  for (int64_t i = 0; i < states.size(0); ++i) {
    // CHECK: [[@LINE+1]]:5: outlives=loop{{$}}
    probe_outlives(scores);
    scores.push_back(actor(states[i]));
  }
  return torch::stack(scores).mean().item<double>();
}

// The best of several trials: only the picked element reaches the result,
// and every trial has a graph of its own, so the others are kept for
// nothing until the function returns.
torch::Tensor best_trial(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs) {
  std::vector<torch::Tensor> losses;
  size_t best = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = model(xs[i]).sum();
    // CHECK: [[@LINE+1]]:5: outlives=loop{{$}}
    probe_outlives(losses, loss);
    losses.push_back(loss);
    if (loss.item<double>() < losses[best].item<double>())
      best = i;
  }
  return losses[best];
}

// Only numbers read from what the loop gathers reach the result (the index
// of the farthest point, the features are selected with): the result takes
// no graph from it, so the loop does not build it.
torch::Tensor farthest_points(const torch::Tensor &features, int64_t k) {
  int64_t n = features.size(0);
  std::vector<int64_t> picked;
  for (int64_t step = 0; step < k; ++step) {
    torch::Tensor dist = torch::full({n}, 1e9);
    for (int64_t start = 0; start < n; start += 64) {
      // CHECK: [[@LINE+1]]:7: outlives=loop{{$}}
      probe_outlives(dist);
      dist.slice(0, start, start + 64) = features.slice(0, start, start + 64).pow(2).sum(1);
    }
    picked.push_back(dist.argmax().item<int64_t>());
  }
  return features.index_select(0, torch::tensor(picked));
}
// The pick made in a loop over the elements: any of them may be the result.
torch::Tensor best_trial_in_loop(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs) {
  std::vector<torch::Tensor> losses;
  for (const auto &x : xs) {
    auto loss = model(x).sum();
    // CHECK: [[@LINE+1]]:5: outlives=loop bounded
    probe_outlives(losses, loss);
    losses.push_back(loss);
  }
  torch::Tensor best = losses.front();
  for (size_t i = 1; i < losses.size(); ++i)
    if (losses[i].item<double>() < best.item<double>())
      best = losses[i];
  return best;
}
// A recurrent state stored at each step: the last one's graph holds the
// others', so returning it keeps nothing more.
torch::Tensor last_state(torch::nn::Linear &model, torch::Tensor h) {
  std::vector<torch::Tensor> states;
  for (int t = 0; t < 5; ++t) {
    h = torch::tanh(model(h));
    // CHECK: [[@LINE+1]]:5: outlives=loop bounded
    probe_outlives(states, h);
    states.push_back(h);
  }
  return states.back();
}
// The object of a method, when its class is itself a container of tensors:
// it outlives each call, as a member does; bounded when a backward pass of
// the unit walks what an object of the class holds.
struct KeptTensors : std::vector<torch::Tensor> {
  void add(const torch::Tensor &t) {
    // CHECK: [[@LINE+1]]:5: outlives=call{{$}}
    probe_outlives(*this);
    push_back(t);
  }
};
struct EpisodeTensors : std::vector<torch::Tensor> {
  void add(const torch::Tensor &t) {
    // CHECK: [[@LINE+1]]:5: outlives=call bounded
    probe_outlives(*this);
    push_back(t);
  }
};
void finish_episode(EpisodeTensors &episode) {
  torch::stack(episode).sum().backward();
  episode.clear();
}
// A write of one element: a new one each time only when the key changes
// (judged against the loop where it does), never for a constant key.
void probe_new_slot(const std::vector<torch::Tensor> &, int64_t key);
void probe_new_slot(const std::vector<torch::Tensor> &, const std::string &key);
struct Latest {
  std::vector<torch::Tensor> last_;
  int64_t step_ = 0;
  void log() {
    // CHECK: [[@LINE+1]]:5: new-slot=no
    probe_new_slot(last_, 0);
    // CHECK: [[@LINE+1]]:5: new-slot=yes
    probe_new_slot(last_, step_);
  }
};
int64_t next_index();
void slots(const std::vector<torch::Tensor> &xs) {
  std::vector<torch::Tensor> kept(4);
  const int64_t fixed = 2;
  int64_t chosen = xs.size() > 1 ? 1 : 0;
  for (int64_t epoch = 0; epoch < 3; ++epoch) {
    for (int64_t i = 0; i < 4; ++i) {
      // CHECK: [[@LINE+1]]:7: new-slot=no
      probe_new_slot(kept, fixed);
      // CHECK: [[@LINE+1]]:7: new-slot=no
      probe_new_slot(kept, chosen);
      // CHECK: [[@LINE+1]]:7: new-slot=yes loop-line=[[@LINE-5]]
      probe_new_slot(kept, i);
      // CHECK: [[@LINE+1]]:7: new-slot=yes loop-line=[[@LINE-8]]
      probe_new_slot(kept, epoch);
      // CHECK: [[@LINE+1]]:7: new-slot=yes loop-line=[[@LINE-9]]
      probe_new_slot(kept, next_index());
      // CHECK: [[@LINE+1]]:7: new-slot=yes loop-line=[[@LINE-11]]
      probe_new_slot(kept, std::to_string(i));
    }
  }
}

// What an accessor of the user's class hands out is a part of its object: a
// write into it is a write into the object.
class Storage {
public:
  torch::Tensor &obs(int step) { return obs_[step]; }
  torch::Tensor values() { return values_.narrow(0, 0, 1); }
  torch::Tensor fresh() { return torch::zeros({1}); }

private:
  std::vector<torch::Tensor> obs_;
  torch::Tensor values_;
};
Storage storage_global;
void through_accessors() {
  Storage local;
  for (int step = 0; step < 3; ++step) {
    // CHECK: [[@LINE+1]]:5: outlives=call
    probe_outlives(storage_global.obs(step));
    // CHECK: [[@LINE+1]]:5: outlives=call
    probe_outlives(storage_global.values());
    // CHECK: [[@LINE+1]]:5: outlives=loop
    probe_outlives(local.obs(step));
    // A new tensor each call is no part of the object.
    // CHECK: [[@LINE+1]]:5: outlives=no
    probe_outlives(storage_global.fresh());
  }
}
