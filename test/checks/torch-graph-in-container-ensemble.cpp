// RUN: %check_torch_tidy %s torch-graph-in-container %t
// RUN: %check_torch_tidy --check-suffix=ACC %s torch-graph-accumulation %t.acc

// A loop that runs each module of a collection in turn (an ensemble's
// members, one actor per agent) gathers one value per module: bounded by
// the collection, not by time. Whether those forwards should record a graph
// at all is torch-eval-without-grad-guard's question. Gathered across the
// iterations of a loop around it, the values grow.

#include <torch/torch.h>
#include <torch/script.h>
#include <vector>

struct ActorImpl : torch::nn::Module {
  torch::nn::Linear fc{4, 2};
  torch::Tensor forward(const torch::Tensor &x) { return fc(x); }
};
TORCH_MODULE(Actor);

// One action per agent, concatenated and returned.
torch::Tensor act(std::vector<Actor> &actors, const std::vector<torch::Tensor> &obs) {
  std::vector<torch::Tensor> parts;
  for (size_t i = 0; i < actors.size(); ++i)
    parts.push_back(actors[i]->forward(obs[i]));
  return torch::cat(parts, 1);
}

// An ensemble of scripted models: each member's output normalised, kept
// and summed once.
torch::Tensor vote(std::vector<torch::jit::script::Module> &models,
                   const torch::Tensor &images) {
  std::vector<torch::jit::IValue> input{images};
  std::vector<torch::Tensor> outputs(models.size());
  torch::Tensor sum = torch::zeros({images.size(0), 2});
  for (size_t i = 0; i < models.size(); ++i) {
    auto y = models[i].forward(input).toTensor();
    outputs[i] = y / y.abs().max();
    sum += outputs[i];
  }
  return torch::argmax(sum, 1);
}

// A range-for over the members.
torch::Tensor average(std::vector<Actor> &members, const torch::Tensor &x) {
  torch::Tensor total = torch::zeros({1, 2});
  for (auto &member : members)
    total = total + member->forward(x);
  return total / static_cast<double>(members.size());
}

// Kept across steps: every step adds each member's graph.
std::vector<torch::Tensor> history(std::vector<Actor> &actors,
                                   const torch::Tensor &x, int steps) {
  std::vector<torch::Tensor> seen;
  for (int step = 0; step < steps; ++step)
    for (size_t i = 0; i < actors.size(); ++i)
      seen.push_back(actors[i]->forward(x));
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'seen' outlives the iteration and each time a tensor that carries autograd history is stored in it
  // CHECK-FIXES: seen.push_back(actors[i]->forward(x).detach());
  return seen;
}

// Indexed by something other than the loop's counter: not a loop over the
// collection.
std::vector<torch::Tensor> same_member(std::vector<Actor> &actors,
                                       const torch::Tensor &x, int steps) {
  std::vector<torch::Tensor> seen;
  for (int step = 0; step < steps; ++step)
    seen.push_back(actors[0]->forward(x));
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'seen' outlives the iteration and each time a tensor that carries autograd history is stored in it
  // CHECK-FIXES: seen.push_back(actors[0]->forward(x).detach());
  return seen;
}

float run(std::vector<Actor> &actors,
          std::vector<torch::jit::script::Module> &models,
          const std::vector<torch::Tensor> &obs) {
  float r = act(actors, obs).sum().item<float>();
  r += vote(models, obs[0]).sum().item<float>();
  r += average(actors, obs[0]).sum().item<float>();
  r += history(actors, obs[0], 10).size();
  r += same_member(actors, obs[0], 10).size();
  return r;
}
