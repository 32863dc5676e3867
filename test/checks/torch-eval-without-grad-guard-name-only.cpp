// RUN: %check_torch_tidy %s torch-eval-without-grad-guard %t

// A function that is evaluation code by its name alone (EvalFunctions),
// whose result goes to code with no body in view, rests on two guesses:
// that the name says what the function does, and that the code out of view
// does not differentiate what it gets. It is left alone. A mode switch, or a
// use of the result in view, is evidence: those are still reported.

#include <torch/torch.h>

torch::Tensor learnFrom(const torch::Tensor &logits);
void show(double value);

struct Actor {
  torch::nn::Linear net{4, 2};

  // Only the name says it evaluates; its callers hand the result on.
  torch::Tensor get_action(const torch::Tensor &state) {
    return net->forward(state).softmax(-1);
  }

  // The name, and the result read as numbers in view: the use is the
  // evidence the finding rests on.
  double predict(const torch::Tensor &state) {
    return net->forward(state).max().item<double>();
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode
    // CHECK-MESSAGES: :[[@LINE-2]]:12: note: its result is only read as numbers or detached and dropped in 'predict'
    // CHECK-FIXES: double predict(const torch::Tensor &state) {
    // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
  }

  // The name, and a caller in view that keeps the result, differentiating
  // nothing: use does not say it is dropped, so the name is what says
  // evaluation, and the note says so.
  torch::Tensor evaluate(const torch::Tensor &state) {
    return net->forward(state);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode
    // CHECK-MESSAGES: :[[@LINE-3]]:17: note: 'evaluate' is evaluation code by its name (option EvalFunctions)
  }

  // The mode switch is evidence, whatever code out of view does.
  torch::Tensor act(const torch::Tensor &state) {
    net->eval();
    torch::Tensor probs = net->forward(state).softmax(-1);
    // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode
    // CHECK-FIXES: net->eval();
    // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
    return probs;
  }
};

void step(Actor &actor, const torch::Tensor &state) {
  learnFrom(actor.get_action(state));
  learnFrom(actor.act(state));
  show(actor.predict(state));
  static std::vector<torch::Tensor> scores;
  scores.push_back(actor.evaluate(state));
}
