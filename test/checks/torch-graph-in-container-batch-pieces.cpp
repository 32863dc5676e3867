// RUN: %check_torch_tidy %s torch-graph-in-container %t

// A counted loop over the rows of one tensor made before it (the images of
// one batch's predictions, filtered and kept one entry per image) runs no
// model: what it stores comes from that one graph, one entry per row,
// bounded by the tensor. So does one over the tensors of one container
// (a detector's outputs, one per scale, counted through a local that holds
// the container's size). A loop that runs the model on each row, or a list
// that outlives a loop around the one over the rows, grows; so does one
// bounded by a count that the loop changes. A loop over a container's own
// slots that fills them by its counter, and a range-for over the tensors
// of one container, are bounded as well.

#include <torch/torch.h>
#include <torch/script.h>
#include <iostream>
#include <vector>

torch::Tensor keepFirst(const torch::Tensor &pred, int64_t n) {
  return pred.index_select(0, torch::arange(n));
}

// The detections of each image of one forward's batch.
std::vector<torch::Tensor> detect(torch::jit::script::Module &model,
                                  const torch::Tensor &images) {
  torch::Tensor preds = model.forward({images}).toTensor();
  std::vector<torch::Tensor> output;
  for (int64_t i = 0; i < preds.sizes()[0]; ++i) {
    torch::Tensor pred = preds.select(0, i);
    torch::Tensor scores = pred.select(1, 4) * pred.select(1, 5);
    pred = pred.index_select(0, torch::arange(scores.size(0)));
    output.push_back(keepFirst(pred, 10) * 2);
    // CHECK-FIXES: output.push_back(keepFirst(pred, 10) * 2);
  }
  return output;
}

// The boxes of each scale of one forward's outputs, gathered and joined.
torch::Tensor perScale(const std::vector<torch::Tensor> preds) {
  size_t scales = preds.size();
  std::vector<torch::Tensor> boxes;
  for (size_t i = 0; i < scales; i++) {
    torch::Tensor pred = preds.at(i);
    std::cout << "scale " << i << " of " << scales << "\n";
    boxes.push_back(pred.index_select(0, torch::arange(2)) * torch::randn({2}, torch::requires_grad()));
  }
  torch::Tensor joined = boxes.at(0);
  for (size_t i = 1; i < boxes.size(); i++)
    joined = torch::cat({joined, boxes.at(i)}, 0);
  return joined.detach().clone();
}

// The count grows with what the loop finds: nothing bounds it.
torch::Tensor untilCovered(const std::vector<torch::Tensor> preds) {
  size_t scales = preds.size();
  std::vector<torch::Tensor> boxes;
  for (size_t i = 0; i < scales; i++) {
    boxes.push_back(preds.at(i) * torch::randn({2}, torch::requires_grad()));
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'boxes' outlives the iteration and each time a tensor that carries autograd history is stored in it
    // CHECK-FIXES: boxes.push_back((preds.at(i) * torch::randn({2}, torch::requires_grad())).detach());
    if (boxes.size() % 3 == 0)
      scales++;
  }
  return torch::cat(boxes, 0).detach();
}

// Each row runs the model again: every row's graph is kept.
std::vector<torch::Tensor> perRow(torch::nn::Linear &model,
                                  const torch::Tensor &rows) {
  std::vector<torch::Tensor> output;
  for (int64_t i = 0; i < rows.size(0); ++i)
    output.push_back(model(rows[i]) * 2);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'output' outlives the iteration and each time a tensor that carries autograd history is stored in it
  return output;
}

// Kept across epochs: the loop over the rows is not what bounds it.
std::vector<torch::Tensor> everyEpoch(torch::nn::Linear &model,
                                      const torch::Tensor &x, int epochs) {
  std::vector<torch::Tensor> output;
  for (int epoch = 0; epoch < epochs; ++epoch) {
    torch::Tensor preds = model(x);
    for (int64_t i = 0; i < preds.size(0); ++i)
      output.push_back(preds[i] * 2);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'output' outlives the iteration and each time a tensor that carries autograd history is stored in it
    // CHECK-FIXES: output.push_back((preds[i] * 2).detach());
  }
  return output;
}

// A loop with no condition is bounded by nothing.
std::vector<torch::Tensor> untilEmpty(torch::nn::Linear &model,
                                      const torch::Tensor &x, int budget) {
  std::vector<torch::Tensor> output;
  for (;;) {
    output.push_back(model(x) * 2);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'output' outlives the iteration and each time a tensor that carries autograd history is stored in it
    // CHECK-FIXES: output.push_back((model(x) * 2).detach());
    if (--budget == 0)
      break;
  }
  return output;
}

// Each slot of a container filled in a loop over its own slots: it does not
// grow (a model's parameters moved to a device, one per slot).
void copyParameters(torch::nn::Linear &to, torch::nn::Linear &from) {
  auto params = to->parameters();
  auto other = from->parameters();
  auto device = params.front().device();
  for (size_t i = 0; i < params.size(); ++i) {
    params[i] = other[i].to(device);
  }
}

// The same container written at another slot than the counter's, and
// pushed to: it grows.
void copyAndKeep(torch::nn::Linear &to, torch::nn::Linear &from) {
  auto params = to->parameters();
  auto other = from->parameters();
  for (size_t i = 0; i < params.size(); ++i) {
    params[0] = other[i] * 2;
    params.push_back(other[i] * 2);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'params' outlives the iteration and each time a tensor that carries autograd history is stored in it
    // CHECK-FIXES: params.push_back((other[i] * 2).detach());
  }
}

// A range-for over the tensors of one container (a recurrent model's state,
// one tensor per layer), with no model run in it: one entry per tensor.
void reportStates(const std::vector<torch::Tensor> &state,
                  const torch::Tensor &action) {
  std::vector<torch::Tensor> previous;
  for (const auto &s : state)
    previous.push_back(torch::cat({s / s.norm(), action}, 1));
  std::cout << torch::cat(previous, 0).sizes() << "\n";
}

// One that runs the model on each: every tensor's graph is kept.
std::vector<torch::Tensor> modelPerState(torch::nn::Linear &model,
                                         const std::vector<torch::Tensor> &state) {
  std::vector<torch::Tensor> previous;
  for (const auto &s : state)
    previous.push_back(model(s));
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'previous' outlives the iteration and each time a tensor that carries autograd history is stored in it
  return previous;
}

int64_t use(torch::jit::script::Module &m, torch::nn::Linear &l,
            const torch::Tensor &x) {
  return static_cast<int64_t>(detect(m, x).size() + perRow(l, x).size() +
                              everyEpoch(l, x, 3).size() +
                              untilEmpty(l, x, 3).size() +
                              modelPerState(l, {x}).size()) +
         perScale({l(x)}).size(0) + untilCovered({l(x)}).size(0);
}

void report(torch::nn::Linear &l, const torch::Tensor &x) {
  reportStates({l(x)}, x);
}
