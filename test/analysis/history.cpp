// H: does this expression carry autograd history?
// RUN: %analysis_dump %s -- %mock_torch | sort -t: -k1,1n | FileCheck %s -implicit-check-not=history=

#include <torch/torch.h>
#include <torch/script.h>
#include <functional>
#include <tuple>
#include <vector>

void probe_history(const torch::Tensor &);
void probe_history(double);
void probe_history(const std::vector<torch::Tensor> &);

struct NetImpl : torch::nn::Module {
  NetImpl() {
    weight = register_parameter("weight", torch::randn({4}));
    running = register_buffer("running", torch::zeros({4}));
  }
  torch::Tensor weight, running;
};
TORCH_MODULE(Net);

torch::Tensor helper(torch::nn::Linear &model, const torch::Tensor &x) {
  return model(x) * 2;
}
torch::Tensor passthrough(const torch::Tensor &t) { return t + 1; }
torch::Tensor external(const torch::Tensor &t);

void sources(torch::nn::Linear &model, torch::nn::Sequential &seq,
             torch::nn::AnyModule &any, torch::jit::Module &jit,
             torch::nn::LSTM &lstm, Net &net, const torch::Tensor &x) {
  // CHECK: [[@LINE+1]]:3: history=yes
  probe_history(model(x));
  // CHECK: [[@LINE+1]]:3: history=yes
  probe_history(model->forward(x));
  // CHECK: [[@LINE+1]]:3: history=yes
  probe_history(seq->forward(x));
  // CHECK: [[@LINE+1]]:3: history=yes
  probe_history(any.forward(x));
  // CHECK: [[@LINE+1]]:3: history=yes
  probe_history(jit.forward({x}).toTensor());
  // CHECK: [[@LINE+1]]:3: history=leaf
  probe_history(model->parameters());
  // CHECK: [[@LINE+1]]:3: history=leaf
  probe_history(torch::ones({2}, torch::TensorOptions().requires_grad(true)));
  // CHECK: [[@LINE+1]]:3: history=leaf
  probe_history(net->weight);
  // CHECK: [[@LINE+1]]:3: history=no
  probe_history(net->running);
  // CHECK: [[@LINE+1]]:3: history=yes
  probe_history(helper(model, x));
  // CHECK: [[@LINE+1]]:3: history=yes
  probe_history(passthrough(model(x)));
  // CHECK: [[@LINE+1]]:3: history=unknown
  probe_history(passthrough(x));
  // CHECK: [[@LINE+1]]:3: history=yes
  probe_history(external(model(x)));
  // CHECK: [[@LINE+1]]:3: history=no
  probe_history(torch::zeros({2}));
}

void cuts(torch::nn::Linear &model, const torch::Tensor &x, const torch::Tensor &y) {
  auto out = model(x);
  // CHECK: [[@LINE+1]]:3: history=no
  probe_history(out.detach());
  // CHECK: [[@LINE+1]]:3: history=no
  probe_history(out.sum().item<double>());
  // CHECK: [[@LINE+1]]:3: history=no
  probe_history(out.argmax(1));
  // CHECK: [[@LINE+1]]:3: history=no
  probe_history(out.eq(y));
  // CHECK: [[@LINE+1]]:3: history=no
  probe_history(out > 0);
  // CHECK: [[@LINE+1]]:3: history=no
  probe_history(out.to(torch::kLong));
  // CHECK: [[@LINE+1]]:3: history=yes
  probe_history(out.to(torch::kFloat));
  // CHECK: [[@LINE+1]]:3: history=yes
  probe_history(torch::relu(out) + y);
}

void flow(torch::nn::Linear &model, torch::nn::LSTM &lstm, const torch::Tensor &x) {
  torch::Tensor t = model(x);
  // CHECK: [[@LINE+1]]:3: history=yes
  probe_history(t);
  t = t.detach();
  // Only the definitions that reach the use count.
  // CHECK: [[@LINE+1]]:3: history=no
  probe_history(t);
  auto &ref = t;
  // CHECK: [[@LINE+1]]:3: history=no
  probe_history(ref);
  torch::Tensor out, state;
  std::tie(out, std::ignore) = lstm(x);
  // CHECK: [[@LINE+1]]:3: history=yes
  probe_history(out);
  auto [a, b] = lstm(x);
  // CHECK: [[@LINE+1]]:3: history=yes
  probe_history(a);
  std::vector<torch::Tensor> list;
  list.push_back(model(x));
  // CHECK: [[@LINE+1]]:3: history=yes
  probe_history(list);
  list.clear();
  // CHECK: [[@LINE+1]]:3: history=no
  probe_history(list);
  auto w = torch::randn({3});
  w.requires_grad_();
  // CHECK: [[@LINE+1]]:3: history=yes
  probe_history(w * 2);
}

void loops(torch::nn::Linear &model, const torch::Tensor &x) {
  torch::Tensor acc = torch::zeros({});
  for (int i = 0; i < 3; ++i) {
    // Reached around the loop from the assignment below.
    // CHECK: [[@LINE+1]]:5: history=yes
    probe_history(acc);
    acc = acc + model(x).sum();
  }
}

void guards(torch::nn::Linear &model, const torch::Tensor &x) {
  torch::Tensor out;
  {
    torch::NoGradGuard no_grad;
    out = model(x);
    // CHECK: [[@LINE+1]]:5: history=no
    probe_history(model(x));
  }
  // Computed under the guard, used after it.
  // CHECK: [[@LINE+1]]:3: history=no
  probe_history(out);
  // CHECK: [[@LINE+1]]:3: history=yes
  probe_history(model(x));
}

// A guard records nothing new; a value built before it keeps its graph.
void built_before_guard(torch::nn::Linear &model, const torch::Tensor &x) {
  auto value = model(x);
  torch::Tensor kept, copied;
  std::vector<torch::Tensor> stored;
  {
    torch::NoGradGuard no_grad;
    kept = value;
    copied = value.clone();
    stored.push_back(value);
  }
  // CHECK: [[@LINE+1]]:3: history=yes
  probe_history(stored);
  // CHECK: [[@LINE+1]]:3: history=yes
  probe_history(kept);
  // CHECK: [[@LINE+1]]:3: history=no
  probe_history(copied);
}

torch::Tensor guarded_helper(torch::nn::Linear &model, const torch::Tensor &x) {
  return model(x);
}
void caller_guards(torch::nn::Linear &model, const torch::Tensor &x) {
  torch::NoGradGuard no_grad;
  guarded_helper(model, x);
}
void helper_result(torch::nn::Linear &model, const torch::Tensor &x) {
  // Every call of guarded_helper... but this one is not guarded.
  // CHECK: [[@LINE+1]]:3: history=yes
  probe_history(guarded_helper(model, x));
}

// Leaves keep no graph; a differentiable op on one records a graph.
void leaves(torch::nn::Linear &model, Net &net) {
  for (auto &p : model->parameters()) {
    // CHECK: [[@LINE+1]]:5: history=leaf
    probe_history(p);
    // CHECK: [[@LINE+1]]:5: history=yes
    probe_history(p * 2);
  }
  for (auto &item : model->named_parameters())
    // CHECK: [[@LINE+1]]:5: history=leaf
    probe_history(item.value());
  // CHECK: [[@LINE+1]]:3: history=leaf
  probe_history(model->weight);
  auto w = torch::zeros({3}).requires_grad_();
  // CHECK: [[@LINE+1]]:3: history=leaf
  probe_history(w);
  // CHECK: [[@LINE+1]]:3: history=yes
  probe_history(w[0]);
}

// The elements of a tuple built in view are told apart.
std::tuple<torch::Tensor, torch::Tensor> act(torch::nn::Linear &actor,
                                             torch::nn::Linear &critic,
                                             const torch::Tensor &obs) {
  auto value = critic(obs);
  torch::Tensor action;
  {
    torch::NoGradGuard no_grad;
    action = actor(obs).argmax(-1).to(torch::kFloat);
  }
  return std::make_tuple(action, value);
}
void elements(torch::nn::Linear &actor, torch::nn::Linear &critic,
              const torch::Tensor &obs) {
  // CHECK: [[@LINE+1]]:3: history=no
  probe_history(std::get<0>(act(actor, critic, obs)));
  // CHECK: [[@LINE+1]]:3: history=yes
  probe_history(std::get<1>(act(actor, critic, obs)));
  auto [a, v] = act(actor, critic, obs);
  // CHECK: [[@LINE+1]]:3: history=no
  probe_history(a);
  // CHECK: [[@LINE+1]]:3: history=yes
  probe_history(v);
  torch::Tensor a2, v2;
  std::tie(a2, v2) = act(actor, critic, obs);
  // CHECK: [[@LINE+1]]:3: history=no
  probe_history(a2);
  auto pair = std::make_pair(actor(obs), obs);
  // CHECK: [[@LINE+1]]:3: history=yes
  probe_history(pair.first);
}

// A function whose body is not in view returns history when handed it,
// unless its name says it is a metric.
torch::Tensor compute_loss(const torch::Tensor &out, const torch::Tensor &target);
torch::Tensor accuracy(const torch::Tensor &out, const torch::Tensor &target);
struct Base {
  virtual ~Base() = default;
  virtual torch::Tensor transform(const torch::Tensor &t) { return t * 0; }
};
void opaque(torch::nn::Linear &model, const torch::Tensor &x,
            std::function<torch::Tensor(const torch::Tensor &)> loss_fn,
            torch::Tensor (*criterion)(const torch::Tensor &), Base &base) {
  auto out = model(x);
  // CHECK: [[@LINE+1]]:3: history=yes
  probe_history(compute_loss(out, x));
  // CHECK: [[@LINE+1]]:3: history=unknown
  probe_history(accuracy(out, x));
  // CHECK: [[@LINE+1]]:3: history=yes
  probe_history(loss_fn(out));
  // CHECK: [[@LINE+1]]:3: history=yes
  probe_history(criterion(out));
  // CHECK: [[@LINE+1]]:3: history=yes
  probe_history(base.transform(out));
  // CHECK: [[@LINE+1]]:3: history=unknown
  probe_history(compute_loss(x, x));
  auto square = [](const torch::Tensor &t) { return t * t; };
  // CHECK: [[@LINE+1]]:3: history=yes
  probe_history(square(out));
}

// An override's parameter takes what calls of the method it overrides pass:
// the base hands the backbone's features to its virtual `decode`.
struct Decoder {
  virtual ~Decoder() = default;
  virtual void decode(const torch::Tensor &features) = 0;
  void run(torch::nn::Linear &backbone, const torch::Tensor &image) {
    decode(backbone(image));
  }
};
struct KeepsLevels : Decoder {
  void decode(const torch::Tensor &features) override {
    // CHECK: [[@LINE+1]]:5: history=yes
    probe_history(features);
  }
};

// Handed a model with tensors, a function out of view runs it (unless its
// name says it evaluates); a tensor it gets by non-const reference is an
// output and gets the same answer.
torch::Tensor energy(torch::nn::Linear model, const torch::Tensor &x,
                     torch::Tensor &psi);
torch::Tensor evaluate_energy(torch::nn::Linear model, const torch::Tensor &x);
int64_t count_parameters(torch::nn::Linear model);
void read_only(torch::nn::Linear model, const torch::Tensor &x,
               const torch::Tensor &psi);
void outputs(torch::nn::Linear &model, const torch::Tensor &x) {
  torch::Tensor psi, kept;
  // CHECK: [[@LINE+1]]:3: history=yes
  probe_history(energy(model, x, psi));
  // CHECK: [[@LINE+1]]:3: history=yes
  probe_history(psi);
  // CHECK: [[@LINE+1]]:3: history=unknown
  probe_history(evaluate_energy(model, x));
  read_only(model, x, kept);
  // CHECK: [[@LINE+1]]:3: history=no
  probe_history(kept);
}

// torch::autograd::grad returns gradients with history only when it builds
// a graph of the backward pass (create_graph).
void gradients(torch::nn::Linear &model, const torch::Tensor &x) {
  auto out = model(x);
  auto params = model->parameters();
  // CHECK: [[@LINE+1]]:3: history=no
  probe_history(torch::autograd::grad({out}, params));
  // CHECK: [[@LINE+1]]:3: history=no
  probe_history(torch::autograd::grad({out}, params, {}, true, false));
  auto first = torch::autograd::grad({out}, params, {}, true, true);
  // CHECK: [[@LINE+1]]:3: history=yes
  probe_history(first);
  // CHECK: [[@LINE+1]]:3: history=yes
  probe_history(torch::autograd::grad({first}, params, {}, true, true).front());
}

// A method of the user's module whose body is in another file, run on a
// tensor: it runs the module's layers. One handed no tensor, or whose body
// is in view, is judged by what is known of it.
struct PolicyImpl : torch::nn::Module {
  torch::nn::Linear fc{4, 2};
  std::pair<torch::Tensor, torch::Tensor> sample(torch::Tensor state, bool noisy);
  torch::Tensor norm() const;
  torch::Tensor twice(const torch::Tensor &t) { return t * 2; }
};
void module_methods_out_of_view(PolicyImpl &policy, const torch::Tensor &x) {
  // CHECK: [[@LINE+1]]:3: history=yes
  probe_history(policy.sample(x, false).first);
  // CHECK: [[@LINE+1]]:3: history=unknown
  probe_history(policy.norm());
  // CHECK: [[@LINE+1]]:3: history=no
  probe_history(policy.twice(torch::zeros({4})));
}

// A parameter takes the history its call sites hand it.
void sink(const torch::Tensor &t) {
  // CHECK: [[@LINE+1]]:3: history=yes
  probe_history(t);
}
void feed(torch::nn::Linear &model, const torch::Tensor &x) {
  for (int i = 0; i < 3; ++i)
    sink(model(x));
}

// The indices of max, sort, topk carry no history; the values do.
void indices(torch::nn::Linear &model, const torch::Tensor &x) {
  auto out = model(x);
  torch::Tensor values, index;
  std::tie(values, index) = torch::max(out, 1);
  // CHECK: [[@LINE+1]]:3: history=no
  probe_history(index);
  // CHECK: [[@LINE+1]]:3: history=yes
  probe_history(values);
  // CHECK: [[@LINE+1]]:3: history=no
  probe_history(std::get<1>(out.topk(2)));
  auto [sorted, order] = out.sort();
  // CHECK: [[@LINE+1]]:3: history=no
  probe_history(order);
}

// A distribution object of the user's, built from the policy's output by a
// constructor defined in another file: its methods compute with what it was
// built from; sample() draws without gradients, as torch.distributions' does.
class Categorical {
public:
  explicit Categorical(torch::Tensor probs);
  torch::Tensor sample();
  torch::Tensor Sample(int64_t n);
  torch::Tensor rsample();
  torch::Tensor log_prob(const torch::Tensor &action);
  torch::Tensor entropy();

private:
  torch::Tensor probs_;
};
void distributions(torch::nn::Linear &policy, const torch::Tensor &obs) {
  Categorical dist(torch::softmax(policy(obs), -1));
  auto action = dist.sample();
  // CHECK: [[@LINE+1]]:3: history=unknown
  probe_history(action);
  // CHECK: [[@LINE+1]]:3: history=unknown
  probe_history(dist.Sample(4));
  // CHECK: [[@LINE+1]]:3: history=yes
  probe_history(dist.rsample());
  // CHECK: [[@LINE+1]]:3: history=yes
  probe_history(dist.log_prob(action));
  // CHECK: [[@LINE+1]]:3: history=yes
  probe_history(dist.entropy());
  // Built from an input: nothing to carry.
  Categorical uniform(torch::ones({4}) / 4);
  // CHECK: [[@LINE+1]]:3: history=unknown
  probe_history(uniform.entropy());
}

// An in-place write into a parameter (or a view of one) only runs with grad
// mode off: LibTorch refuses it otherwise.
void probe_grad_leaf(const torch::Tensor &);
void in_place_targets(torch::nn::Linear &model, const torch::Tensor &x) {
  torch::Tensor buffer = torch::zeros({4});
  torch::Tensor leaf = torch::zeros({4}, torch::requires_grad());
  auto out = model(x);
  // CHECK: [[@LINE+1]]:3: grad-leaf=yes
  probe_grad_leaf(model->weight.slice(1, 0, 2));
  // CHECK: [[@LINE+1]]:3: grad-leaf=yes
  probe_grad_leaf(model->bias);
  // CHECK: [[@LINE+1]]:3: grad-leaf=yes
  probe_grad_leaf(leaf[0]);
  // CHECK: [[@LINE+1]]:3: grad-leaf=no
  probe_grad_leaf(buffer);
  // CHECK: [[@LINE+1]]:3: grad-leaf=no
  probe_grad_leaf(out.select(0, 1));
}

// A struct of tensors, followed field by field: an aggregate returned by a
// function of the unit (brace-initialised or filled field by field), a copy
// of one, and a nested one.
struct StepLosses {
  torch::Tensor total, logged;
};
struct StepOutput {
  StepLosses losses;
  torch::Tensor prediction;
};
StepLosses braced(torch::nn::Linear &model, const torch::Tensor &x) {
  auto loss = model(x).pow(2).mean();
  return {loss, loss.detach()};
}
StepLosses filled(torch::nn::Linear &model, const torch::Tensor &x) {
  StepLosses out;
  auto loss = model(x).pow(2).mean();
  out.total = loss;
  out.logged = loss.detach();
  return out;
}
struct StepLevels {
  std::vector<torch::Tensor> levels;
  torch::Tensor scale;
};
StepLevels levels_of(torch::nn::Linear &model, const torch::Tensor &x) {
  StepLevels out;
  out.scale = torch::ones({1});
  for (int l = 0; l < 3; ++l)
    out.levels.push_back(model(x));
  return out;
}
void struct_fields(torch::nn::Linear &model, const torch::Tensor &x) {
  auto a = braced(model, x);
  // CHECK: [[@LINE+1]]:3: history=yes
  probe_history(a.total);
  // CHECK: [[@LINE+1]]:3: history=no
  probe_history(a.logged);
  auto b = filled(model, x);
  // CHECK: [[@LINE+1]]:3: history=yes
  probe_history(b.total);
  // CHECK: [[@LINE+1]]:3: history=no
  probe_history(b.logged);
  StepLosses c = b;
  // CHECK: [[@LINE+1]]:3: history=no
  probe_history(c.logged);
  StepOutput o{braced(model, x), torch::zeros({2})};
  // CHECK: [[@LINE+1]]:3: history=no
  probe_history(o.prediction);
  // CHECK: [[@LINE+1]]:3: history=yes
  probe_history(o.losses.total);
  o.prediction = model(x);
  // CHECK: [[@LINE+1]]:3: history=yes
  probe_history(o.prediction);
  auto lv = levels_of(model, x);
  // CHECK: [[@LINE+1]]:3: history=yes
  probe_history(lv.levels);
  // CHECK: [[@LINE+1]]:3: history=no
  probe_history(lv.scale);
}

// A field of a field: the path is followed to the end (through a local
// aggregate, a parameter's call sites, std::get and structured bindings),
// not cut at the outer field.
void nested_read(const StepOutput &r) {
  // CHECK: [[@LINE+1]]:3: history=no
  probe_history(r.losses.logged);
  // CHECK: [[@LINE+1]]:3: history=yes
  probe_history(r.losses.total);
}
void nested_fields(torch::nn::Linear &model, const torch::Tensor &x) {
  StepLosses l = braced(model, x);
  StepOutput o{l, torch::zeros({2})};
  // CHECK: [[@LINE+1]]:3: history=no
  probe_history(o.losses.logged);
  // CHECK: [[@LINE+1]]:3: history=yes
  probe_history(o.losses.total);
  nested_read(o);
  auto t = std::make_tuple(torch::ones({1}), braced(model, x));
  // CHECK: [[@LINE+1]]:3: history=no
  probe_history(std::get<1>(t).logged);
  // CHECK: [[@LINE+1]]:3: history=no
  probe_history(std::get<0>(t));
  auto [first, second] = t;
  // CHECK: [[@LINE+1]]:3: history=no
  probe_history(second.logged);
  // CHECK: [[@LINE+1]]:3: history=yes
  probe_history(second.total);
}

// A member of the user's class read through `this`: what the method wrote
// before the read, else what the class's methods leave in it when they
// return (another method's write, a constructor's, an initializer's).
class StepTrainer {
public:
  explicit StepTrainer(torch::nn::Linear m) : model(m), scale_(torch::ones({1})) {}
  void step(const torch::Tensor &x) {
    last_loss_ = model(x).sum();
    last_loss_.backward();
    detached_ = model(x).sum();
    detached_ = detached_.detach();
    {
      torch::NoGradGuard guard;
      guarded_ = model(x);
    }
    log_.push_back(model(x));
  }
  void read(const torch::Tensor &x) {
    // CHECK: [[@LINE+1]]:5: history=yes
    probe_history(last_loss_);
    // CHECK: [[@LINE+1]]:5: history=yes
    probe_history(last_loss_ * 2);
    // CHECK: [[@LINE+1]]:5: history=unknown
    probe_history(detached_);
    // CHECK: [[@LINE+1]]:5: history=unknown
    probe_history(guarded_);
    // CHECK: [[@LINE+1]]:5: history=yes
    probe_history(log_);
    // CHECK: [[@LINE+1]]:5: history=unknown
    probe_history(scale_);
    // CHECK: [[@LINE+1]]:5: history=unknown
    probe_history(untouched_);
    last_loss_ = torch::zeros({1});
    // CHECK: [[@LINE+1]]:5: history=no
    probe_history(last_loss_);
  }
  torch::nn::Linear model;
  torch::Tensor last_loss_, detached_, guarded_, scale_, untouched_;
  std::vector<torch::Tensor> log_;
};

// A method of the user's class handed a tensor may keep it in its object:
// with the body in view, when it writes the parameter into the object or a
// member; without it, always.
class Keeper : public std::vector<torch::Tensor> {
public:
  void keep(const torch::Tensor &t) { this->push_back(t * 2); }
  void count(const torch::Tensor &t) { n_ += t.size(0); }
  void stash(const torch::Tensor &t);
  int64_t n_ = 0;
};
void kept_arguments(torch::nn::Linear &model, const torch::Tensor &x) {
  Keeper a, b, c;
  a.keep(model(x));
  // CHECK: [[@LINE+1]]:3: history=yes
  probe_history(a[0]);
  b.count(model(x));
  // CHECK: [[@LINE+1]]:3: history=no
  probe_history(b[0]);
  c.stash(model(x));
  // CHECK: [[@LINE+1]]:3: history=yes
  probe_history(c[0]);
}

// The forward of the user's module with its body in view: what its body
// returns, per element, in the branch of is_training() that the module's
// known mode takes (a local model never put in evaluation mode trains).
struct SamplerImpl : torch::nn::Module {
  torch::nn::Linear head{nullptr};
  torch::Tensor mean_;
  std::tuple<torch::Tensor, torch::Tensor> forward(torch::Tensor x) {
    mean_ = head->forward(x);
    torch::Tensor score = head->forward(x * 2);
    if (!is_training())
      return std::make_tuple(mean_, score);
    torch::NoGradGuard no_grad;
    torch::Tensor sample = mean_ + torch::ones_like(mean_);
    return std::make_tuple(sample, score);
  }
};
TORCH_MODULE(Sampler);
void forward_in_view(const torch::Tensor &x, Sampler &given) {
  Sampler training;
  auto out = training->forward(x);
  // CHECK: [[@LINE+1]]:3: history=no
  probe_history(std::get<0>(out));
  // CHECK: [[@LINE+1]]:3: history=yes
  probe_history(std::get<1>(out));
  auto handed = given->forward(x);
  // CHECK: [[@LINE+1]]:3: history=yes
  probe_history(std::get<0>(handed));
  Sampler evaluated;
  evaluated->eval();
  auto eval_out = evaluated->forward(x);
  // CHECK: [[@LINE+1]]:3: history=yes
  probe_history(std::get<0>(eval_out));
}

// A tensor that lends only its dtype, device or shape: `x.to(other)`,
// `type_as`, `view_as`, `expand_as` carry x's history, not other's; a
// tensor made with another's options (`new_zeros`) carries none.
void options_only(torch::nn::Linear &model, const torch::Tensor &x) {
  torch::Tensor out = model(x);
  torch::Tensor ids = torch::ones({4});
  // CHECK: [[@LINE+1]]:3: history=no
  probe_history(ids.to(out));
  // CHECK: [[@LINE+1]]:3: history=no
  probe_history(ids.type_as(out));
  // CHECK: [[@LINE+1]]:3: history=no
  probe_history(ids.view_as(out));
  // CHECK: [[@LINE+1]]:3: history=no
  probe_history(ids.expand_as(out));
  // CHECK: [[@LINE+1]]:3: history=no
  probe_history(out.new_zeros({4}));
  // CHECK: [[@LINE+1]]:3: history=yes
  probe_history(out.to(ids));
  // CHECK: [[@LINE+1]]:3: history=yes
  probe_history(out.type_as(ids));
}

// An in-place chain on a slice that ends by bringing a value in writes the
// tensor the slice was taken from; one that brings nothing in does not.
void in_place_chains(torch::nn::Linear &model, const torch::Tensor &x) {
  torch::Tensor filled = torch::zeros({4, 4});
  filled.slice(0, 0, 2).sigmoid_().add_(model(x));
  // CHECK: [[@LINE+1]]:3: history=yes
  probe_history(filled);
  torch::Tensor squashed = torch::zeros({4, 4});
  squashed.slice(0, 0, 2).sigmoid_().mul_(0.5);
  // CHECK: [[@LINE+1]]:3: history=no
  probe_history(squashed);
}

// An object of a class of the user's built by a constructor in view holds
// what the constructor, and the methods of its own that it calls, leave in
// its members: a record of loss terms set through private methods carries
// the forward's graph; one default-built, or holding only a detached copy,
// carries none.
class LossTerms {
public:
  LossTerms() = default;
  LossTerms(torch::nn::Linear &model, const torch::Tensor &x) : model_(model) {
    fit(x);
    total_ = fit_ * 2;
  }
  explicit LossTerms(const torch::Tensor &t) : total_(t.detach()) {}

private:
  void fit(const torch::Tensor &x) { fit_ = model_->forward(x).pow(2).mean(); }
  torch::nn::Linear model_{nullptr};
  torch::Tensor total_, fit_;
};
void probe_history(const LossTerms &);
class Kept {
public:
  explicit Kept(const torch::Tensor &t) : held_(t * 2) {}

private:
  torch::Tensor held_;
};
void probe_history(const Kept &);
void built_objects(torch::nn::Linear &model, const torch::Tensor &x) {
  LossTerms terms(model, x);
  // CHECK: [[@LINE+1]]:3: history=yes
  probe_history(terms);
  LossTerms empty;
  // CHECK: [[@LINE+1]]:3: history=no
  probe_history(empty);
  // CHECK: [[@LINE+1]]:3: history=no
  probe_history(LossTerms(model(x)));
  // What its constructor keeps of what it is handed, from this construction.
  // CHECK: [[@LINE+1]]:3: history=yes
  probe_history(Kept(model(x)));
  // CHECK: [[@LINE+1]]:3: history=no
  probe_history(Kept(torch::zeros({2})));
}

// A variable a lambda captures by reference is written where the lambda
// runs: called, or handed to a call (an optimizer's closure).
void closure_writes(torch::nn::Linear &model, const torch::Tensor &x,
                    torch::optim::LBFGS &opt) {
  torch::Tensor last = torch::zeros({1});
  auto closure = [&]() -> torch::Tensor {
    last = model(x).sum();
    return last;
  };
  // CHECK: [[@LINE+1]]:3: history=no
  probe_history(last);
  opt.step(closure);
  // CHECK: [[@LINE+1]]:3: history=yes
  probe_history(last);
  torch::Tensor copied = torch::zeros({1});
  auto by_value = [copied, &model, &x]() mutable { copied = model(x).sum(); };
  by_value();
  // CHECK: [[@LINE+1]]:3: history=no
  probe_history(copied);
  // A lambda that runs itself through the std::function it captures.
  torch::Tensor deep = torch::zeros({1});
  std::function<void(int)> recurse = [&](int k) {
    deep = model(x).sum();
    if (k > 0)
      recurse(k - 1);
  };
  recurse(3);
  // CHECK: [[@LINE+1]]:3: history=yes
  probe_history(deep);
}

// A value the function goes on to use as an index is an integer or boolean
// tensor (LibTorch takes no other): no history, whatever it is computed
// from. A value of the same variable replaced before any such use keeps
// its own.
void indices(torch::nn::Linear &model, const torch::Tensor &x,
             const torch::Tensor &table) {
  torch::Tensor coords = model(x);
  // CHECK: [[@LINE+1]]:3: history=no
  probe_history(coords);
  torch::Tensor picked = table.index({coords});
  std::vector<torch::Tensor> parts{model(x), model(x)};
  // CHECK: [[@LINE+1]]:3: history=no
  probe_history(parts);
  torch::Tensor rows = table.index_select(0, parts[1]);
  torch::Tensor out = model(x);
  // CHECK: [[@LINE+1]]:3: history=yes
  probe_history(out);
  out = out.argmax(1);
  torch::Tensor masked = table.masked_fill(out, 0);
  torch::Tensor kept = model(x);
  // CHECK: [[@LINE+1]]:3: history=yes
  probe_history(kept);
  torch::Tensor scaled = table * kept;
}

// A member read after a call of another method of the same object that
// writes it holds what that method wrote: a forward that gathers each
// level's output into a member, read by the loss that clears it first. A
// method that writes nothing to it leaves the clear in place.
struct Tower : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    x = fc(x);
    taps.push_back(x);
    return x;
  }
  void noop() {}
  void tapLoss(const torch::Tensor &input) {
    taps.clear();
    noop();
    // CHECK: [[@LINE+1]]:5: history=no
    probe_history(taps);
    forward(input);
    // CHECK: [[@LINE+1]]:5: history=yes
    probe_history(taps);
  }
  torch::nn::Linear fc{nullptr};
  std::vector<torch::Tensor> taps;
};
