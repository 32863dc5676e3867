// RUN: %check_torch_tidy %s torch-eval-without-grad-guard %t

// A class that holds a model but is no module (a `NeuralNetwork` whose
// `predict` returns its network's forward) is the forward by another name
// when its result serves both ways: the trainer differentiates what
// `predict` returns, the tree search only reads it. Each call of `predict`
// is judged where it is made, the search's and not the trainer's; the
// forward inside `predict` is not (a caller needs its graph). While no call
// differentiates the result, the forward inside is judged, as before.

#include <torch/torch.h>

#include <memory>
#include <utility>
#include <vector>

struct PolicyValueNet : torch::nn::Module {
  torch::nn::Linear policy{nullptr}, value{nullptr};
  std::pair<torch::Tensor, torch::Tensor> forward(torch::Tensor x) {
    return {policy(x), value(x)};
  }
};

class NeuralNetwork {
public:
  // A warm-up after eval(): one call on made-up input whose result dies
  // with the constructor. Nothing keeps its graph past it (that `predict`
  // moves its input by reference does not make the input data).
  NeuralNetwork() : net(std::make_shared<PolicyValueNet>()) {
    net->eval();
    torch::Tensor input = torch::rand({1, 8});
    auto outputs = predict(input);
  }
  std::pair<torch::Tensor, torch::Tensor> predict(torch::Tensor &input) {
    input = input.to(torch::kCPU);
    return net->forward(input);
  }
  void train_batches(const std::vector<torch::Tensor> &batches,
                     torch::optim::Optimizer &optimizer) {
    for (auto batch : batches) {
      auto outputs = predict(batch);
      auto loss = outputs.first.sum() + outputs.second.sum();
      optimizer.zero_grad();
      loss.backward();
      optimizer.step();
    }
  }

private:
  std::shared_ptr<PolicyValueNet> net;
};

float expand(NeuralNetwork &nn, torch::Tensor state) {
  // CHECK-FIXES: float expand(NeuralNetwork &nn, torch::Tensor state) {
  // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
  auto outputs = nn.predict(state);
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode
  return outputs.second.item<float>();
}

float search(NeuralNetwork &nn, torch::Tensor state) {
  float total = 0;
  for (int simulation = 0; simulation < 800; ++simulation)
    total += expand(nn, state);
  return total;
}

// Every call only reads what `act` returns: the forward inside it is judged.
class Agent {
public:
  torch::Tensor act(torch::Tensor state) {
    // CHECK-FIXES: torch::Tensor act(torch::Tensor state) {
    // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
    return net->forward(state).first;
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode
  }

private:
  std::shared_ptr<PolicyValueNet> net;
};

long play(Agent &agent, torch::Tensor state) {
  long moves = 0;
  for (int step = 0; step < 100; ++step)
    moves += agent.act(state).argmax().item<long>();
  return moves;
}

