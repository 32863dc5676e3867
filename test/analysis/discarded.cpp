// Is a value's history thrown away where it is made? Only numbers read from
// it, or detached copies, leave its function.
// RUN: %analysis_dump %s -- %mock_torch | sort -t: -k1,1n | FileCheck %s -implicit-check-not=discarded=

#include <torch/torch.h>
#include <vector>

// Defined here, so that handing a value to it is seen to do nothing.
void probe_discarded(const torch::Tensor &) {}
void probe_discarded(const std::vector<torch::Tensor> &) {}
void show(const torch::Tensor &);
double summarize(const torch::Tensor &t) { return t.sum().item<double>(); }

struct Keeper {
  torch::Tensor kept;
  std::vector<torch::Tensor> history;
};

double numbers_only(torch::nn::Linear &model, const torch::Tensor &x) {
  auto out = model(x);
  // CHECK: [[@LINE+1]]:3: discarded=yes
  probe_discarded(out);
  auto best = out.argmax(1);
  double seen = summarize(out);
  return best.item<double>() + seen + out.detach().sum().item<double>();
}

torch::Tensor returned(torch::nn::Linear &model, const torch::Tensor &x) {
  auto out = model(x);
  // CHECK: [[@LINE+1]]:3: discarded=no
  probe_discarded(out);
  return out * 2;
}

void kept_in_a_member(torch::nn::Linear &model, const torch::Tensor &x, Keeper &k) {
  auto out = model(x);
  // CHECK: [[@LINE+1]]:3: discarded=no
  probe_discarded(out);
  k.kept = out.relu();
}

// A private member that only its class reads, none of its code handing it
// out (a detector's last boxes, drawn on the next frames): it dies with the
// object, and nothing differentiates it.
class LastBoxes {
public:
  explicit LastBoxes(torch::nn::Linear model) : model_(model) {}
  int detect(const torch::Tensor &x) {
    auto out = model_(x);
    // CHECK: [[@LINE+1]]:5: discarded=yes
    probe_discarded(out);
    last_ = out.relu();
    return static_cast<int>(last_.size(0));
  }
  double score() const { return last_.sum().item<double>(); }

private:
  torch::nn::Linear model_;
  torch::Tensor last_;
};

// A detached copy kept where anyone may read it (a public buffer) takes
// none of the graph along; the value itself kept there does.
struct Rollout {
  std::vector<torch::Tensor> log_probs;
};
Rollout rollout;
int act_detached(torch::nn::Linear &model, const torch::Tensor &x) {
  auto probs = model(x);
  // CHECK: [[@LINE+1]]:3: discarded=yes
  probe_discarded(probs);
  auto log_prob = torch::log_softmax(probs, 1);
  rollout.log_probs.push_back(log_prob.detach());
  return probs.argmax(1).item<int>();
}
int act_kept(torch::nn::Linear &model, const torch::Tensor &x) {
  auto probs = model(x);
  // CHECK: [[@LINE+1]]:3: discarded=no
  probe_discarded(probs);
  auto log_prob = torch::log_softmax(probs, 1);
  rollout.log_probs.push_back(log_prob);
  return probs.argmax(1).item<int>();
}

// Handed out by a getter: whoever gets it may differentiate it.
class GivesItOut {
public:
  explicit GivesItOut(torch::nn::Linear model) : model_(model) {}
  void detect(const torch::Tensor &x) {
    auto out = model_(x);
    // CHECK: [[@LINE+1]]:5: discarded=no
    probe_discarded(out);
    last_ = out.relu();
  }
  torch::Tensor last() const { return last_ * 1; }

private:
  torch::nn::Linear model_;
  torch::Tensor last_;
};

// Walked by a backward pass of another method.
class LearnsFromIt {
public:
  explicit LearnsFromIt(torch::nn::Linear model) : model_(model) {}
  void act(const torch::Tensor &x) {
    auto out = model_(x);
    // CHECK: [[@LINE+1]]:5: discarded=no
    probe_discarded(out);
    last_ = out;
  }
  void learn() { last_.sum().backward(); }

private:
  torch::nn::Linear model_;
  torch::Tensor last_;
};

// Copied into another member, which is public.
class CopiesIt {
public:
  explicit CopiesIt(torch::nn::Linear model) : model_(model) {}
  void detect(const torch::Tensor &x) {
    auto out = model_(x);
    // CHECK: [[@LINE+1]]:5: discarded=no
    probe_discarded(out);
    last_ = out;
  }
  void log() { seen.push_back(last_ * 2); }
  std::vector<torch::Tensor> seen;

private:
  torch::nn::Linear model_;
  torch::Tensor last_;
};

// Handed to a function whose body is not in view; and a class with a
// method whose body is not in view, which may read it.
class ShowsIt {
public:
  explicit ShowsIt(torch::nn::Linear model) : model_(model) {}
  void detect(const torch::Tensor &x) {
    auto out = model_(x);
    // CHECK: [[@LINE+1]]:5: discarded=no
    probe_discarded(out);
    last_ = out;
    show(last_);
  }

private:
  torch::nn::Linear model_;
  torch::Tensor last_;
};
class PartlyElsewhere {
public:
  explicit PartlyElsewhere(torch::nn::Linear model) : model_(model) {}
  void detect(const torch::Tensor &x) {
    auto out = model_(x);
    // CHECK: [[@LINE+1]]:5: discarded=no
    probe_discarded(out);
    last_ = out;
  }
  void update(); // defined in another file

private:
  torch::nn::Linear model_;
  torch::Tensor last_;
};

void kept_in_a_container(torch::nn::Linear &model, const torch::Tensor &x,
                         std::vector<torch::Tensor> &outs) {
  auto out = model(x);
  // CHECK: [[@LINE+1]]:3: discarded=no
  probe_discarded(out);
  outs.push_back(out);
}

void handed_to_unseen_code(torch::nn::Linear &model, const torch::Tensor &x) {
  auto out = model(x);
  // CHECK: [[@LINE+1]]:3: discarded=no
  probe_discarded(out);
  show(out);
}

void differentiated(torch::nn::Linear &model, const torch::Tensor &x) {
  auto out = model(x);
  // CHECK: [[@LINE+1]]:3: discarded=no
  probe_discarded(out);
  out.sum().backward();
}

// Pieces of a forward's outputs gathered through a range-based for, and
// handed to a function that computes its result under a guard: what comes
// back carries no history, so returning it takes none of the forward's
// graph out, and the loop variable refers into a local range.
torch::Tensor embedUnderGuard(const std::vector<torch::Tensor> &levels) {
  torch::NoGradGuard no_grad;
  return torch::cat(levels, 1).mean(0);
}
torch::Tensor embedWithHistory(const std::vector<torch::Tensor> &levels) {
  return torch::cat(levels, 1).mean(0);
}
torch::Tensor guardedEmbedding(torch::nn::Linear &model, const torch::Tensor &x) {
  std::vector<torch::Tensor> levels = model(x).chunk(2);
  // CHECK: [[@LINE+1]]:3: discarded=yes
  probe_discarded(levels);
  std::vector<torch::Tensor> features;
  for (const auto &level : levels)
    features.push_back(level.to(torch::kCPU));
  return embedUnderGuard(features);
}
torch::Tensor embeddingWithHistory(torch::nn::Linear &model, const torch::Tensor &x) {
  std::vector<torch::Tensor> levels = model(x).chunk(2);
  // CHECK: [[@LINE+1]]:3: discarded=no
  probe_discarded(levels);
  std::vector<torch::Tensor> features;
  for (const auto &level : levels)
    features.push_back(level.to(torch::kCPU));
  return embedWithHistory(features);
}

// A forward that keeps what it computes in a member of its module keeps it
// there as well: a dropped result leaves the graph in the member, which
// anything may read.
struct KeepsFeaturesImpl : torch::nn::Module {
  torch::nn::Linear fc{nullptr};
  torch::Tensor features;
  torch::Tensor forward(const torch::Tensor &x) {
    features = fc(x);
    return features.relu();
  }
};
TORCH_MODULE(KeepsFeatures);

torch::Tensor features_read(KeepsFeatures &net, const torch::Tensor &x) {
  // CHECK: [[@LINE+1]]:3: discarded=no
  probe_discarded(net->forward(x));
  return net->features;
}
