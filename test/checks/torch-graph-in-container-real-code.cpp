// The idioms of real training code: what torch-graph-in-container must flag
// there, and the correct look-alikes it must leave alone.
// RUN: %check_torch_tidy %s torch-graph-in-container %t
// RUN: %check_torch_tidy --std=c++20 %s torch-graph-in-container %t.cxx20

#include <torch/torch.h>
#include <catch2/benchmark/catch_benchmark.hpp>
#include <catch2/catch_test_macros.hpp>
#include <iostream>
#include <map>
#include <string>
#include <tuple>
#include <vector>

// ---- Flagged ----------------------------------------------------------------

// A metrics class whose add() keeps every loss it is handed.
struct LossHistory {
  std::vector<torch::Tensor> history_;
  void add(const torch::Tensor &loss) { history_.push_back(loss); }
  // CHECK-MESSAGES: :[[@LINE-1]]:41: warning: 'history_' outlives the call and each time a tensor that carries autograd history is stored in it, so each step's graph and saved activations stay reachable and memory grows with every step [torch-graph-in-container]
  // CHECK-FIXES: void add(const torch::Tensor &loss) { history_.push_back(loss.detach()); }
};
void log_losses(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs) {
  LossHistory history;
  for (const auto &x : xs)
    history.add(model(x).sum());
}

// An estimator that is a map of tensors by derivation, as a member of the
// optimizer that fills it every step.
class Estimator : public std::map<std::string, torch::Tensor> {};
struct SrOptimizer {
  Estimator estimator;
  torch::nn::Linear model{4, 1};
  void walk(const std::vector<torch::Tensor> &xs, torch::optim::SGD &opt) {
    for (size_t i = 0; i < xs.size(); ++i) {
      auto energy = model(xs[i]).sum();
      estimator[std::to_string(i)] = energy;
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'estimator' outlives the call and each time a tensor that carries autograd history is stored in it; backward() has freed the saved activations, but each step's autograd graph nodes stay reachable
      // CHECK-FIXES: estimator[std::to_string(i)] = energy.detach();
      energy.backward();
      opt.step();
    }
  }
};

// A metrics buffer filled with losses.
void loss_buffer(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs) {
  torch::Tensor losses = torch::zeros({static_cast<int64_t>(xs.size())});
  torch::Tensor again = torch::zeros({static_cast<int64_t>(xs.size())});
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = model(xs[i]).sum();
    losses[i] = loss;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'losses' outlives the iteration and each time a tensor that carries autograd history is stored in it
    // CHECK-FIXES: losses[i] = loss.detach();
    again.index_put_({static_cast<int64_t>(i)}, loss);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'again' outlives the iteration and each time a tensor that carries autograd history is stored in it
    // CHECK-FIXES: again.index_put_({static_cast<int64_t>(i)}, loss.detach());
  }
}

// Rollout storage cleared every n steps, used only detached: bounded, but
// each graph lives n steps for nothing.
struct Rollout {
  torch::nn::Linear critic{4, 1};
  std::vector<torch::Tensor> values_;
  void step(const torch::Tensor &observation) {
    values_.push_back(critic(observation));
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'values_' outlives the call and each time a tensor that carries autograd history is stored in it
    // CHECK-MESSAGES: :[[@LINE+5]]:5: note: 'values_' is cleared here, which bounds the growth, but every graph stored before it stays alive until then
    // CHECK-FIXES: values_.push_back(critic(observation).detach());
  }
  torch::Tensor returns() {
    auto all = torch::cat(values_).detach();
    values_.clear();
    return all;
  }
};

// Stored after backward() in the same iteration: only graph nodes stay.
void losses_after_backward(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs,
                           torch::optim::SGD &optimizer) {
  std::vector<torch::Tensor> losses;
  for (const auto &x : xs) {
    auto loss = model(x).mean();
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
    losses.push_back(loss);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'losses' outlives the iteration and each time a tensor that carries autograd history is stored in it; backward() has freed the saved activations, but each step's autograd graph nodes stay reachable and host memory grows with every step [torch-graph-in-container]
    // CHECK-FIXES: losses.push_back(loss.detach());
  }
}

// A loss computed by a function defined elsewhere.
torch::Tensor smooth_l1(const torch::Tensor &output, const torch::Tensor &target);
void per_sample_losses(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs) {
  std::map<std::string, torch::Tensor> by_name;
  for (const auto &x : xs)
    by_name[std::to_string(by_name.size())] = smooth_l1(model(x), x);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'by_name' outlives the iteration and each time a tensor that carries autograd history is stored in it
    // CHECK-FIXES: by_name[std::to_string(by_name.size())] = smooth_l1(model(x), x).detach();
}

// A backward pass walks what is stored in the same iteration: no fix.
void stored_and_backpropagated(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs) {
  std::vector<torch::Tensor> kept;
  for (const auto &x : xs) {
    kept.push_back(model(x).sum());
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'kept' outlives the iteration and each time a tensor that carries autograd history is stored in it
    // CHECK-MESSAGES: :[[@LINE-2]]:5: note: no fix: a backward pass walks this graph, so detaching what is stored would change its gradients
    torch::stack(kept).sum().backward({}, /*retain_graph=*/true);
  }
}

// The element of the epoch replaced every step: one element per epoch,
// judged against the epoch loop.
void loss_per_epoch(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs) {
  std::map<int, torch::Tensor> by_epoch;
  for (int epoch = 0; epoch < 10; ++epoch)
    for (const auto &x : xs)
      by_epoch[epoch] = model(x).sum();
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'by_epoch' outlives the iteration and each time a tensor that carries autograd history is stored in it, so each step's graph and saved activations stay reachable and memory grows with every step [torch-graph-in-container]
  // CHECK-MESSAGES: :[[@LINE-5]]:32: note: 'by_epoch' is declared outside the loop
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: the loop that repeats it
  // CHECK-FIXES: by_epoch[epoch] = model(x).sum().detach();
}

// Classes that are containers of tensors themselves: what their methods
// store stays with the object, which outlives each call.
class MetricMap : public std::map<std::string, torch::Tensor> {
public:
  void record(const std::string &key, const torch::Tensor &value) {
    this->operator[](key) = value;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '*this' outlives the call and each time a tensor that carries autograd history is stored in it, so each step's graph and saved activations stay reachable and memory grows with every step [torch-graph-in-container]
    // CHECK-MESSAGES: :[[@LINE-5]]:7: note: '*this' is an object of 'MetricMap', a container of tensors that outlives each call of the method
    // CHECK-FIXES: this->operator[](key) = value.detach();
    // CHECK-MESSAGES: :[[@LINE+14]]:5: note: 'record' is called here in a loop with a tensor that carries autograd history
  }
};
class LossLog : public std::vector<torch::Tensor> {
public:
  void add(const torch::Tensor &loss) { push_back(loss); }
  // CHECK-MESSAGES: :[[@LINE-1]]:41: warning: '*this' outlives the call and each time a tensor that carries autograd history is stored in it
  // CHECK-MESSAGES: :[[@LINE-4]]:7: note: '*this' is an object of 'LossLog', a container of tensors that outlives each call of the method
  // CHECK-FIXES: void add(const torch::Tensor &loss) { push_back(loss.detach()); }
};
void validate(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs,
              MetricMap &estimator, LossLog &log) {
  for (const auto &x : xs) {
    auto loss = model(x).pow(2).mean();
    estimator.record("loss", loss);
    log.add(loss);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: note: 'add' is called here in a loop with a tensor that carries autograd history
  }
}

// The best of several trials, each with a graph of its own: only the picked
// one is returned, the others are kept until the return for nothing. A
// detach at the store would change what is returned: no fix.
torch::Tensor best_of_trials(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs) {
  std::vector<torch::Tensor> scores;
  size_t best = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    scores.push_back(model(xs[i]).abs().mean());
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'scores' outlives the iteration and each time a tensor that carries autograd history is stored in it, so each step's graph and saved activations stay reachable and memory grows with every step [torch-graph-in-container]
    // CHECK-MESSAGES: :[[@LINE-5]]:30: note: 'scores' is declared outside the loop
    // CHECK-MESSAGES: :[[@LINE-4]]:3: note: the loop that repeats it
    // CHECK-MESSAGES: :[[@LINE+5]]:10: note: only one element of 'scores' reaches the function's result, here; the graphs of the others are kept until the function returns, for nothing
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: no fix: the function returns one of the stored values with its graph; detach the others where they are no longer needed, or keep only the best one as the loop goes
    if (scores[i].item<double>() < scores[best].item<double>())
      best = i;
  }
  return scores[best];
}

// The picked trial's ratio is computed from one element of 'dists': the
// other elements of both are kept until the return for nothing.
torch::Tensor distance_of(const torch::Tensor &update, const torch::Tensor &metric);
torch::Tensor best_ratio(torch::nn::Linear &model, const torch::Tensor &x,
                         const torch::Tensor &metric, size_t trials) {
  std::vector<torch::Tensor> dists(trials), ratios(trials);
  auto direction = model(x);
  for (size_t i = 0; i < trials; ++i) {
    auto update = direction * static_cast<double>(i + 1);
    dists[i] = distance_of(update, metric);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'dists' outlives the iteration and each time a tensor that carries autograd history is stored in it, so each step's graph and saved activations stay reachable and memory grows with every step [torch-graph-in-container]
    // CHECK-MESSAGES: :[[@LINE+9]]:10: note: only one element of 'dists' reaches the function's result, here;
    ratios[i] = dists[i] / (dists[i] + 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'ratios' outlives the iteration
    // CHECK-MESSAGES: :[[@LINE+6]]:10: note: only one element of 'ratios' reaches the function's result, here;
  }
  size_t best = 0;
  for (size_t i = 0; i < trials; ++i)
    if ((dists[i] < dists[best]).item<bool>())
      best = i;
  return ratios[best];
}

// One step's outputs split into a fresh vector every N steps, after
// backward(): the inner loop hands out pieces of one graph; the training
// loop around it is the one that repeats, and the vector, made afresh in
// the same branch right before it is filled, holds that one step's pieces
// until the next sample, as a vector cleared before every store does:
// nothing grows. One filled under a condition of its own after the reset
// keeps every step's until the next one.
void detect(const std::vector<torch::Tensor> &outputs);
void sample_every_n(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs,
                    torch::optim::SGD &optimizer) {
  std::vector<torch::Tensor> output_one;
  for (size_t step = 0; step < xs.size(); step++) {
    auto output = model(xs[step]);
    optimizer.zero_grad();
    output.sum().backward();
    optimizer.step();
    if (step % 10 == 1) {
      output_one = std::vector<torch::Tensor>(2);
      for (size_t i = 0; i < output_one.size(); i++)
        output_one.at(i) = output[i];
      detect(output_one);
    }
  }
}

void keep_every_step(torch::nn::Linear &model,
                     const std::vector<torch::Tensor> &xs,
                     torch::optim::SGD &optimizer) {
  std::vector<torch::Tensor> kept;
  for (size_t step = 0; step < xs.size(); step++) {
    auto output = model(xs[step]);
    optimizer.zero_grad();
    output.sum().backward();
    optimizer.step();
    if (step % 10 == 1)
      kept.clear();
    if (step % 2 == 1) {
      kept.push_back(output[0]);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'kept' outlives the iteration and each time a tensor that carries autograd history is stored in it; backward() has freed the saved activations
      // CHECK-FIXES: kept.push_back(output[0].detach());
      detect(kept);
    }
  }
}

// A helper out of view handed the model runs it: what it returns, and what
// it writes into a tensor handed by non-const reference, carry its graph.
torch::Tensor local_energy(torch::nn::Linear model, const torch::Tensor &x,
                           torch::Tensor &psi);
double mean_energy(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs) {
  std::vector<torch::Tensor> energies, psis;
  for (const auto &x : xs) {
    torch::Tensor psi;
    energies.push_back(local_energy(model, x, psi));
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'energies' outlives the iteration and each time a tensor that carries autograd history is stored in it
    // CHECK-FIXES: energies.push_back(local_energy(model, x, psi).detach());
    psis.push_back(psi);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'psis' outlives the iteration and each time a tensor that carries autograd history is stored in it
    // CHECK-FIXES: psis.push_back(psi.detach());
  }
  return torch::stack(energies).mean().item<double>() / psis.size();
}

// Gradients computed with create_graph carry a graph of the backward pass.
void gradient_norms(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs) {
  std::vector<torch::Tensor> norms;
  for (const auto &x : xs) {
    auto g = torch::autograd::grad({model(x).sum()}, model->parameters(), {},
                                   true, /*create_graph=*/true)[0];
    norms.push_back(g.norm());
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'norms' outlives the iteration and each time a tensor that carries autograd history is stored in it
    // CHECK-FIXES: norms.push_back(g.norm().detach());
  }
  std::cout << torch::stack(norms).max().item<double>();
}

// A member that one method leaves holding the forward's output, kept by
// another method in a history that lives as long as the object: no backward
// pass walks it, so each step's activations stay too.
class OutputLog {
public:
  void predict(torch::nn::Linear &model, const torch::Tensor &x) { last_ = model(x); }
  void record() { history_.push_back(last_); }
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'history_' outlives the call and each time a tensor that carries autograd history is stored in it, so each step's graph and saved activations stay reachable and memory grows with every step [torch-graph-in-container]
  // CHECK-MESSAGES: :[[@LINE-3]]:68: note: 'last_' is left holding a tensor that carries autograd history here, in 'predict'
  // CHECK-FIXES: void record() { history_.push_back(last_.detach()); }
  torch::Tensor last_;
  std::vector<torch::Tensor> history_;
};
void run_logged(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs) {
  OutputLog log;
  for (const auto &x : xs) {
    log.predict(model, x);
    log.record();
  }
}

// A metrics buffer filled field by field from a nested result struct: only
// the loss keeps its graph; the logged parts were detached where the result
// was built, and a gradient's norm (a function out of view) has none. The
// update's own backward pass walked the loss: only graph nodes are kept.
struct PpoLosses {
  torch::Tensor loss, clipped, entropy;
};
struct UpdateResult {
  PpoLosses ppo;
  torch::Tensor grad_norm;
};
torch::Tensor clip_grad_norm_(const std::vector<torch::Tensor> &parameters, double max_norm);
PpoLosses ppo_losses(const torch::Tensor &out, const torch::Tensor &target) {
  auto clipped = (out - target).clamp(-1, 1);
  auto entropy = out.exp().sum();
  return {clipped.mean() - 0.01 * entropy, clipped.detach(), entropy.detach()};
}
UpdateResult update(torch::nn::Linear &model, torch::optim::SGD &optimizer,
                    const torch::Tensor &x, const torch::Tensor &y) {
  auto losses = ppo_losses(model(x), y);
  optimizer.zero_grad();
  losses.loss.backward();
  auto norm = clip_grad_norm_(model->parameters(), 0.5);
  optimizer.step();
  return UpdateResult{losses, norm};
}
struct UpdateMetrics {
  torch::Tensor loss = torch::empty({4, 8}), clipped = torch::empty({4, 8}),
                entropy = torch::empty({4, 8}), grad_norm = torch::empty({4, 8});
  void set(int64_t epoch, int64_t batch, const UpdateResult &result) {
    loss.index_put_({epoch, batch}, result.ppo.loss);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'loss' outlives the call and each time a tensor that carries autograd history is stored in it; backward() has freed the saved activations, but each step's autograd graph nodes stay reachable
    // CHECK-FIXES: loss.index_put_({epoch, batch}, result.ppo.loss.detach());
    clipped.index_put_({epoch, batch}, result.ppo.clipped);
    entropy.index_put_({epoch, batch}, result.ppo.entropy);
    grad_norm.index_put_({epoch, batch}, result.grad_norm);
  }
};
void ppo_epochs(torch::nn::Linear &model, torch::optim::SGD &optimizer,
                UpdateMetrics &metrics, const torch::Tensor &x, const torch::Tensor &y) {
  for (int64_t epoch = 0; epoch < 4; ++epoch)
    for (int64_t batch = 0; batch < 8; ++batch) {
      UpdateResult result = update(model, optimizer, x, y);
      metrics.set(epoch, batch, result);
    }
}

// ---- Not flagged ------------------------------------------------------------

// A detector's top-scoring anchors of each level, picked from one output:
// the loop's own variable holds only a slice of it, narrowed by a
// selection, so the loop hands out pieces of a graph made before it.
std::vector<torch::Tensor> top_levels(torch::nn::Linear &head,
                                      const torch::Tensor &features,
                                      const torch::Tensor &top) {
  torch::Tensor scores = head(features);
  std::vector<torch::Tensor> levels;
  for (int64_t k = 0; k < 5; ++k) {
    torch::Tensor layer = scores.slice(0, k * 8, k * 8 + 8);
    layer = layer.index_select(0, top);
    levels.push_back(layer);
  }
  std::cout << torch::cat(levels).max().item<float>() << std::endl;
  return {};
}


// One forward's output split into a vector: no new graph per iteration.
void split_heads(torch::nn::Linear &model, const torch::Tensor &x) {
  auto output = model(x);
  std::vector<torch::Tensor> heads(2);
  for (size_t i = 0; i < heads.size(); i++)
    heads.at(i) = output.select(0, i);
  detect(heads);
}

// Parameters and leaves keep no graph.
struct NetImpl : torch::nn::Module {
  NetImpl() { scale = register_parameter("scale", torch::ones({1})); }
  torch::Tensor scale;
};
TORCH_MODULE(Net);
void parameter_lists(torch::nn::Linear &model, Net &net) {
  std::vector<torch::Tensor> params, named, leaves, weights;
  for (auto &p : model->parameters())
    params.push_back(p);
  for (auto &item : model->named_parameters())
    named.push_back(item.value());
  for (int i = 0; i < 3; ++i)
    leaves.push_back(torch::randn({3}, torch::requires_grad()));
  for (int i = 0; i < 3; ++i)
    weights.push_back(net->scale);
  weights.push_back(model->weight);
}

// An action sampled under a guard inside the callee keeps no graph; the value
// next to it does, but only the action is stored.
struct ActorCriticImpl : torch::nn::Module {
  torch::nn::Linear actor{4, 2}, critic{4, 1};
  std::tuple<torch::Tensor, torch::Tensor> act(const torch::Tensor &observation) {
    auto value = critic(observation);
    torch::Tensor action;
    {
      torch::NoGradGuard no_grad;
      action = actor(observation).softmax(-1).multinomial(1);
    }
    return std::make_tuple(action, value);
  }
};
TORCH_MODULE(ActorCritic);
void collect_actions(ActorCritic &agent, const std::vector<torch::Tensor> &observations) {
  std::vector<torch::Tensor> actions;
  for (const auto &obs : observations) {
    actions.push_back(std::get<0>(agent->act(obs)));
    auto [action, value] = agent->act(obs);
    actions.push_back(action);
  }
}

// Per-step outputs gathered into a local container or tensor and returned:
// an unrolled sequence whose caller backpropagates it once.
struct SeqDecoderImpl : torch::nn::Module {
  torch::nn::GRUCell cell{8, 8};
  torch::nn::Linear head{8, 4};
  torch::Tensor forward(torch::Tensor h, int64_t steps) {
    std::vector<torch::Tensor> outputs;
    torch::Tensor logits = torch::zeros({steps, 4});
    for (int64_t t = 0; t < steps; ++t) {
      h = cell(torch::zeros({1, 8}), h);
      outputs.push_back(head(h));
      logits.index_put_({t}, head(h).squeeze(0));
    }
    return torch::cat({torch::stack(outputs), logits});
  }
};

// A recurrent state stored at each step and the last one returned: its
// graph holds the others', nothing more is kept. And a pick made in a loop
// over the stored values: any of them may be the result.
torch::Tensor last_hidden(torch::nn::GRUCell &cell, torch::Tensor h, int64_t steps) {
  std::vector<torch::Tensor> states;
  for (int64_t t = 0; t < steps; ++t) {
    h = cell(torch::zeros({1, 8}), h);
    states.push_back(h);
  }
  return states.back();
}
torch::Tensor lowest_loss(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs) {
  std::vector<torch::Tensor> losses;
  for (const auto &x : xs)
    losses.push_back(model(x).sum());
  torch::Tensor lowest = losses.front();
  for (size_t i = 1; i < losses.size(); ++i)
    if (losses[i].item<double>() < lowest.item<double>())
      lowest = losses[i];
  return lowest;
}

// One element replaced each step (a constant key or index): each write
// drops the graph the previous step stored, nothing grows.
struct LatestLosses {
  std::map<std::string, torch::Tensor> latest_;
  void log(const torch::Tensor &loss) { latest_["loss"] = loss; }
};
void gan_step(torch::nn::Linear &gen, torch::nn::Linear &disc,
              const std::vector<torch::Tensor> &zs, LatestLosses &logger) {
  std::map<std::string, torch::Tensor> losses;
  std::vector<torch::Tensor> last(2);
  const std::string d_name = "d_loss";
  for (const auto &z : zs) {
    auto fake = gen(z);
    auto g_loss = -disc(fake).mean();
    auto d_loss = disc(fake.detach()).mean();
    losses["g_loss"] = g_loss;
    losses[d_name] = d_loss;
    losses.insert_or_assign("total", g_loss + d_loss);
    last.at(0) = g_loss;
    last[1] = d_loss;
    logger.log(g_loss);
  }
}

// Pieces of one forward's output struct gathered for a visualisation, in a
// loop over its levels: that loop makes no new graph, and the struct they
// go into is a local of the outer iteration.
struct HeadOutputs {
  std::vector<torch::Tensor> levels;
};
struct HeadsImpl : torch::nn::Module {
  torch::nn::Linear head{8, 4};
  HeadOutputs forward(const torch::Tensor &x) {
    HeadOutputs out;
    for (int l = 0; l < 3; ++l)
      out.levels.push_back(head(x));
    return out;
  }
};
TORCH_MODULE(Heads);
void show(const HeadOutputs &outputs);
void visualise_first(Heads &heads, const std::vector<torch::Tensor> &batches) {
  for (const auto &x : batches) {
    HeadOutputs all = heads->forward(x);
    HeadOutputs first;
    for (size_t l = 0; l < all.levels.size(); ++l)
      first.levels.push_back(all.levels[l][0].unsqueeze(0));
    show(first);
  }
}

// A class that is a list of log-probabilities, backpropagated and cleared
// by its user after each episode.
class Episode : public std::vector<torch::Tensor> {
public:
  void add(const torch::Tensor &log_prob) { push_back(log_prob); }
};
void reinforce_episodes(torch::nn::Linear &policy, const std::vector<torch::Tensor> &steps,
                        torch::optim::Adam &optimizer) {
  Episode episode;
  for (int i = 0; i < 10; ++i) {
    for (const auto &obs : steps)
      episode.add(policy(obs).log_softmax(-1).max());
    auto loss = -torch::stack(episode).sum();
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
    episode.clear();
  }
}

// REINFORCE: the episode's log-probabilities are backpropagated after it and
// the list starts afresh.
void reinforce(torch::nn::Linear &policy, const std::vector<torch::Tensor> &steps,
               torch::optim::Adam &optimizer) {
  std::vector<torch::Tensor> log_probs;
  for (int episode = 0; episode < 10; ++episode) {
    log_probs = {};
    for (const auto &obs : steps)
      log_probs.push_back(policy(obs).log_softmax(-1).max());
    auto loss = -torch::stack(log_probs).sum();
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
}

// REINFORCE with the step and the episode's end in lambdas: the stored
// values are backpropagated where finish() is called, after the steps, and
// cleared for the next episode.
void reinforce_lambdas(torch::nn::Linear &policy, torch::optim::Adam &optimizer) {
  std::vector<torch::Tensor> saved_log_probs, saved_values;
  auto select_action = [&](const torch::Tensor &state) {
    auto out = policy(state);
    saved_log_probs.emplace_back(out.log_softmax(-1).max());
    saved_values.push_back(out.sum());
    return 0;
  };
  auto finish_episode = [&] {
    auto loss = torch::stack(saved_log_probs).sum() + torch::stack(saved_values).sum();
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
    saved_log_probs.clear();
    saved_values.clear();
  };
  for (int episode = 0; episode < 100; ++episode) {
    for (int t = 0; t < 10; ++t)
      select_action(torch::rand({2}));
    finish_episode();
  }
}

// A module's forward that fills its result cluster by cluster and returns
// it in a struct: the caller backpropagates it.
struct LogProbOutput {
  torch::Tensor output;
  double loss;
  LogProbOutput(torch::Tensor output, double loss) : output(output), loss(loss) {}
};
struct ClustersImpl : torch::nn::Module {
  torch::nn::Linear head{4, 4};
  LogProbOutput forward(const torch::Tensor &input, const torch::Tensor &rows) {
    torch::Tensor output = torch::zeros({4});
    for (int cluster = 0; cluster < 3; ++cluster)
      output.index_copy_(0, rows, head(input).sum(1));
    return LogProbOutput(output, 0.0);
  }
};

// Branch outputs gathered by a module's forward and concatenated into what it
// returns; the module that calls it returns its own result in turn.
struct PyramidImpl : torch::nn::Module {
  torch::nn::Linear branch{4, 4}, project{4, 4};
  torch::Tensor forward(torch::Tensor x) {
    std::vector<torch::Tensor> outputs;
    for (int i = 0; i < 4; i++)
      outputs.push_back(branch->forward(x));
    x = torch::cat(outputs, 1);
    x = project->forward(x);
    return x;
  }
};
TORCH_MODULE(Pyramid);
struct DecoderHeadImpl : torch::nn::Module {
  Pyramid pyramid;
  torch::Tensor forward(const std::vector<torch::Tensor> &features) {
    auto fused = pyramid->forward(features.back());
    fused = fused * 2;
    return fused;
  }
};

// Per-level predictions written field by field into a struct that the
// module's forward returns whole.
struct LevelOutputs {
  std::vector<torch::Tensor> masks;
  std::vector<torch::Tensor> classes;
};
struct LevelHeadImpl : torch::nn::Module {
  torch::nn::Linear mask_head{4, 4}, class_head{4, 2};
  LevelOutputs forward(const std::vector<torch::Tensor> &levels) {
    LevelOutputs out;
    out.masks.resize(levels.size());
    out.classes.resize(levels.size());
    for (size_t i = 0; i < levels.size(); i++) {
      out.masks[i] = mask_head->forward(levels[i]);
      out.classes[i] = class_head->forward(levels[i]);
    }
    return out;
  }
};

// Without create_graph, the gradients carry no history.
void plain_gradient_norms(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs) {
  std::vector<torch::Tensor> norms;
  for (const auto &x : xs)
    norms.push_back(torch::autograd::grad({model(x).sum()}, model->parameters())[0].norm());
  std::cout << torch::stack(norms).max().item<double>();
}

// A helper out of view whose name says it evaluates runs under its own
// guard; one handed the model with no tensor does not run it.
torch::Tensor evaluate_loss(torch::nn::Linear model, const torch::Tensor &x);
torch::Tensor weight_norm(torch::nn::Linear model);
void validation_curve(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs) {
  std::vector<torch::Tensor> curve, norms;
  for (const auto &x : xs) {
    curve.push_back(evaluate_loss(model, x));
    norms.push_back(weight_norm(model));
  }
  std::cout << torch::stack(curve).min().item<double>() << torch::stack(norms).max();
}

// Second derivatives taken with create_graph, gathered into the function's
// result: the gradients are the result, as a forward's output is, and the
// caller decides what to do with their graph.
torch::Tensor hessian_diagonal(torch::nn::Linear &model, torch::Tensor x) {
  x.requires_grad_(true);
  auto y = model(x).sum();
  auto dy = torch::autograd::grad({y}, {x}, {}, true, /*create_graph=*/true)[0];
  auto d2y = torch::zeros_like(dy);
  for (int64_t i = 0; i < dy.size(1); ++i) {
    auto row = torch::autograd::grad({dy.select(1, i).sum()}, {x}, {}, true, true)[0];
    d2y.index_put_({torch::indexing::Slice(), i}, row.select(1, i));
  }
  return d2y;
}

// A PPO rollout step with a distribution class defined in another file: the
// log-probability computed from the policy's output is kept with its graph
// in the rollout buffer (read detached, cleared elsewhere); the sampled
// action is drawn without gradients.
class Categorical {
public:
  explicit Categorical(torch::Tensor probs);
  torch::Tensor Sample();
  torch::Tensor Log_Prob(torch::Tensor action);

private:
  torch::Tensor probs_;
};
struct RolloutBuffer {
  std::vector<torch::Tensor> actions, logprobs;
};
struct DiscreteActorCritic {
  torch::nn::Linear actor{4, 2};
  int64_t Interact(torch::Tensor state, RolloutBuffer *rollout) {
    torch::Tensor probs = torch::softmax(actor(state), -1);
    Categorical distribute(probs);
    torch::Tensor action = distribute.Sample();
    torch::Tensor logprob = distribute.Log_Prob(action);
    rollout->actions.push_back(action);
    rollout->logprobs.push_back(logprob);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'logprobs' outlives the call and each time a tensor that carries autograd history is stored in it
    // CHECK-FIXES: rollout->logprobs.push_back(logprob.detach());
    return action.item<int64_t>();
  }
};

// A genetic crossover copies slices of the parents' weights into the
// child's: an in-place write into a parameter, which LibTorch only allows
// with grad mode off (the caller's guard, in another file). Nothing is
// recorded.
struct GenomeImpl : torch::nn::Module {
  std::vector<torch::nn::Linear> hidden;
  torch::nn::Linear output{4, 2};
};
TORCH_MODULE(Genome);
void crossover(const Genome &first, const Genome &second, const Genome &child) {
  for (size_t h = 0; h < first->hidden.size(); ++h) {
    const auto weights = first->hidden[h]->weight.clone();
    child->hidden[h]->weight.slice(1, 0, 2) = weights.slice(1, 0, 2);
  }
  const auto output_weights = second->output->weight.clone();
  child->output->weight.slice(1, 0, 2) = output_weights.slice(1, 0, 2);
  child->output->bias.copy_(output_weights.sum(1));
}

// PPO's evaluation of the stored actions: per-sample log-probabilities from
// a distribution class defined elsewhere, gathered in a loop and stacked
// into the fields of the returned struct, which the update backpropagates.
struct NormalDistribute {
  NormalDistribute(torch::Tensor mu, torch::Tensor std);
  torch::Tensor Log_Prob(torch::Tensor value);
  torch::Tensor Entropy();
  torch::Tensor mu_, std_;
};
struct CriticReturn {
  torch::Tensor logprobs, entropies;
};
CriticReturn evaluate_stored(torch::nn::Linear &actor, const torch::Tensor &states,
                             const torch::Tensor &actions, const torch::Tensor &std) {
  CriticReturn ret;
  std::vector<torch::Tensor> logprobs, entropies;
  auto mu = actor(states);
  for (int64_t i = 0; i < mu.size(0); i++) {
    NormalDistribute distribute(mu[i], std);
    logprobs.push_back(distribute.Log_Prob(actions[i]).sum(-1));
    entropies.push_back(distribute.Entropy().sum(-1));
  }
  ret.logprobs = torch::stack(logprobs);
  ret.entropies = torch::stack(entropies);
  return ret;
}

// A member that the method writing it leaves detached, or writes under a
// guard: what another method keeps has no graph.
class CleanLog {
public:
  void predict(torch::nn::Linear &model, const torch::Tensor &x) {
    last_ = model(x);
    last_ = last_.detach();
    {
      torch::NoGradGuard guard;
      scores_ = model(x);
    }
  }
  void record() {
    history_.push_back(last_);
    history_.push_back(scores_);
  }
  torch::Tensor last_, scores_;
  std::vector<torch::Tensor> history_;
};
void run_clean_log(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs) {
  CleanLog log;
  for (const auto &x : xs) {
    log.predict(model, x);
    log.record();
  }
}

// A critic's values gathered over an episode and returned; the only caller
// prints their mean. Every step's forward graph is kept for nothing until
// the caller drops the result.
std::vector<torch::Tensor> episode_values(torch::nn::Linear &critic,
                                          const std::vector<torch::Tensor> &states) {
  std::vector<torch::Tensor> values;
  for (const auto &s : states)
    values.push_back(critic(s));
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'values' outlives the iteration and each time a tensor that carries autograd history is stored in it, so each step's graph and saved activations stay reachable and memory grows with every step [torch-graph-in-container]
  // CHECK-FIXES: values.push_back(critic(s).detach());
  return values;
}
void log_values(torch::nn::Linear &critic, const std::vector<torch::Tensor> &states) {
  auto values = episode_values(critic, states);
  // CHECK-MESSAGES: :[[@LINE-1]]:17: note: 'episode_values' returns what the loop gathers, and no caller differentiates it (this call reads only numbers from it): every stored graph is kept for nothing until the result is dropped
  std::cout << torch::stack(values).mean().item<double>() << "\n";
}
// The same gathering for a caller that trains on it: the caller's graph.
std::vector<torch::Tensor> episode_log_probs(torch::nn::Linear &actor,
                                             const std::vector<torch::Tensor> &states) {
  std::vector<torch::Tensor> log_probs;
  for (const auto &s : states)
    log_probs.push_back(torch::log_softmax(actor(s), -1));
  return log_probs;
}
void policy_update(torch::nn::Linear &actor, torch::optim::SGD &opt,
                   const std::vector<torch::Tensor> &states) {
  auto log_probs = episode_log_probs(actor, states);
  opt.zero_grad();
  (-torch::stack(log_probs).sum()).backward();
  opt.step();
}
// Slices of an update the caller computed, handed back to a caller that
// applies them as numbers: each keeps only the caller's graph.
std::vector<torch::Tensor> unflatten(const torch::Tensor &flat) {
  std::vector<torch::Tensor> parts;
  for (int64_t i = 0; i < 3; ++i)
    parts.push_back(flat.slice(0, i * 4, i * 4 + 4).reshape({2, 2}));
  return parts;
}
double update_norm(torch::nn::Linear &model, const torch::Tensor &x) {
  double norm = 0;
  for (const auto &part : unflatten(model(x).flatten()))
    norm += part.norm().item<double>();
  return norm;
}

// Per-row outputs gathered into a function's result whose only callers are
// a Catch2 test case, which compares the numbers, and a benchmark, whose
// framework runs the lambda and only times what it returns.
torch::Tensor row_outputs(torch::nn::Linear &model, const torch::Tensor &x) {
  std::vector<torch::Tensor> rows;
  for (int64_t i = 0; i < x.size(0); ++i)
    rows.push_back(model(x[i]));
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'rows' outlives the iteration and each time a tensor that carries autograd history is stored in it, so each step's graph and saved activations stay reachable and memory grows with every step [torch-graph-in-container]
  // CHECK-FIXES: rows.push_back(model(x[i]).detach());
  return torch::stack(rows);
}
TEST_CASE("row outputs") {
  torch::nn::Linear model(4, 1);
  auto rows = row_outputs(model, torch::ones({2, 4}));
  // CHECK-MESSAGES: :[[@LINE-1]]:15: note: 'row_outputs' returns what the loop gathers, and no caller differentiates it (this call reads only numbers from it): every stored graph is kept for nothing until the result is dropped
  REQUIRE(rows.size(0) == 2);
}
TEST_CASE("row outputs benchmark") {
  torch::nn::Linear model(4, 1);
  auto x = torch::ones({2, 4});
  BENCHMARK("row outputs") { return row_outputs(model, x); };
}
// The same gathering returned from a lambda that a std::function holds and
// the code around it trains on: its caller is not known, so it stays the
// caller's decision.
torch::Tensor row_scores(torch::nn::Linear &model, const torch::Tensor &x) {
  std::vector<torch::Tensor> rows;
  for (int64_t i = 0; i < x.size(0); ++i)
    rows.push_back(model(x[i]));
  return torch::stack(rows);
}
void fit_rows(torch::nn::Linear &model, torch::optim::SGD &opt,
              const torch::Tensor &x) {
  std::function<torch::Tensor()> loss_of = [&] { return row_scores(model, x); };
  opt.zero_grad();
  loss_of().sum().backward();
  opt.step();
}

// A persistent buffer reached through an accessor of another class: the
// accessor hands out a part of its object (a reference to an element, or
// a tensor sharing the member's storage), so an in-place copy into what it
// returns writes into the object, which outlives the rollout.
class RolloutStorage {
public:
  torch::Tensor &obs(int step) { return obs_[step]; }
  torch::Tensor values() { return values_; }

private:
  std::vector<torch::Tensor> obs_ = std::vector<torch::Tensor>(128);
  torch::Tensor values_ = torch::zeros({128, 1});
};
struct RolloutAgent {
  torch::nn::Linear policy{4, 4};
  RolloutStorage storage;
  void rollout() {
    for (int step = 0; step < 128; ++step) {
      auto out = policy(torch::randn({1, 4}));
      storage.values().narrow(0, step, 1).copy_(out.sum(1, true));
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'storage' outlives the call and each time a tensor that carries autograd history is stored in it
      // CHECK-FIXES: storage.values().narrow(0, step, 1).copy_(out.sum(1, true).detach());
      storage.obs(step).copy_(out);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'storage' outlives the call and each time a tensor that carries autograd history is stored in it
      // CHECK-FIXES: storage.obs(step).copy_(out.detach());
    }
  }
};

// Log-probabilities kept in a member buffer of another class, which a
// method of that class clears; the episode's backward pass walks them
// through the buffer's field: bounded on purpose.
struct EpisodeBuffer {
  std::vector<torch::Tensor> log_probs;
  void clear() { log_probs.clear(); }
};
class ReinforceAgent {
public:
  ReinforceAgent() : opt_(net_->parameters(), 0.01) {}
  int act(const torch::Tensor &s) {
    auto p = torch::softmax(net_(s), -1);
    auto a = p.multinomial(1);
    buffer_.log_probs.push_back(p.log().gather(-1, a));
    return a.item<int>();
  }
  void finish_episode() {
    auto loss = -torch::stack(buffer_.log_probs).sum();
    opt_.zero_grad();
    loss.backward();
    opt_.step();
    buffer_.clear();
  }

private:
  torch::nn::Linear net_{4, 2};
  torch::optim::Adam opt_;
  EpisodeBuffer buffer_;
};

// Per-head losses of a segmentation model gathered in a map and combined
// into the one loss the caller backpropagates: elements at different keys
// all reach the result (not the best of several trials), and the map dies
// at return.
torch::Tensor heads_loss(const std::map<std::string, torch::Tensor> &outputs,
                         const torch::Tensor &target) {
  std::map<std::string, torch::Tensor> losses;
  for (const auto &[name, output] : outputs)
    losses[name] = torch::mse_loss(output, target);
  if (losses.size() == 1)
    return losses["out"];
  return losses["out"] + 0.5 * losses["aux"];
}

void train_heads(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs,
                 const torch::Tensor &target, torch::optim::SGD &optimizer) {
  for (const auto &x : xs) {
    std::map<std::string, torch::Tensor> outputs;
    outputs["out"] = model(x);
    outputs["aux"] = model(x * 2);
    optimizer.zero_grad();
    heads_loss(outputs, target).backward();
    optimizer.step();
  }
}

// An actor-critic whose forward samples the action under its own guard in
// training mode and returns the mean (with its graph) in evaluation mode;
// the value comes from the critic, outside the guard.
struct SamplingActorCriticImpl : torch::nn::Module {
  torch::nn::Linear actor{nullptr}, critic{nullptr};
  torch::Tensor mu_;
  std::tuple<torch::Tensor, torch::Tensor> forward(torch::Tensor x) {
    mu_ = torch::tanh(actor->forward(x));
    torch::Tensor val = critic->forward(x);
    if (this->is_training()) {
      torch::NoGradGuard no_grad;
      torch::Tensor action = mu_ + torch::ones_like(mu_);
      return std::make_tuple(action, val);
    }
    return std::make_tuple(mu_, val);
  }
};
TORCH_MODULE(SamplingActorCritic);

// The rollout of a training run: the model is built here and never put in
// evaluation mode, so forward takes the sampling branch. The sampled actions
// hold no graph; the values do.
void rollout(const std::vector<torch::Tensor> &states) {
  SamplingActorCritic ac;
  std::vector<torch::Tensor> actions, values;
  for (const auto &s : states) {
    auto av = ac->forward(s);
    actions.push_back(std::get<0>(av));
    values.push_back(std::get<1>(av));
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'values' outlives the iteration and each time a tensor that carries autograd history is stored in it
    // CHECK-FIXES: values.push_back(std::get<1>(av).detach());
  }
}

// The same model put in evaluation mode first: forward returns the mean,
// which carries the actor's graph.
void rollout_eval(const std::vector<torch::Tensor> &states) {
  SamplingActorCritic ac;
  ac->eval();
  std::vector<torch::Tensor> actions;
  for (const auto &s : states) {
    auto av = ac->forward(s);
    actions.push_back(std::get<0>(av));
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'actions' outlives the iteration and each time a tensor that carries autograd history is stored in it
    // CHECK-FIXES: actions.push_back(std::get<0>(av).detach());
  }
}

// Handed in: its mode is the caller's, not known here.
void rollout_given(SamplingActorCritic &ac, const std::vector<torch::Tensor> &states) {
  std::vector<torch::Tensor> actions;
  for (const auto &s : states) {
    auto av = ac->forward(s);
    actions.push_back(std::get<0>(av));
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'actions' outlives the iteration and each time a tensor that carries autograd history is stored in it
    // CHECK-FIXES: actions.push_back(std::get<0>(av).detach());
  }
}
