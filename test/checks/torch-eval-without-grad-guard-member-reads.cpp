// An acting step keeps the log-probability of its action in a rollout that
// the update, in another unit (update.cpp), reads only detached: nothing
// ever differentiates it, and the step is evaluation code by use, as the
// project's function summaries say of every read of the member. The
// critic's values, kept in a member that the update backpropagates through,
// make a step that is not. Without the summaries (OPAQUE), code out of view
// may differentiate what a member holds: neither is flagged.
// RUN: %torch_tidy -checks='-*,torch-*' --no-cache --export-summaries=%t.json %S/Inputs/member-reads/update.cpp %s -- %mock_torch -I%S/Inputs/member-reads > /dev/null
// RUN: %check_torch_tidy %s torch-eval-without-grad-guard %t -- -config="{CheckOptions: {FunctionSummaries: '%t.json'}}" -- -I%S/Inputs/member-reads
// RUN: %check_torch_tidy --check-suffix=OPAQUE %s torch-eval-without-grad-guard %t.opaque -- -quiet -- -I%S/Inputs/member-reads
// RUN: %torch_tidy -checks='-*,torch-eval-without-grad-guard' --config="{CheckOptions: {FunctionSummaries: '%t.json'}}" %s -- %mock_torch -I%S/Inputs/member-reads | FileCheck %s --check-prefix=NOTES
// RUN: %clang_tidy_plugin -checks='-*,torch-eval-without-grad-guard' --config="{CheckOptions: {FunctionSummaries: '%t.json'}}" %s -- %mock_torch -I%S/Inputs/member-reads | FileCheck %s --check-prefix=NOTES

#include "rollout.h"

class Agent {
public:
  int take_turn(const torch::Tensor &state) {
    auto probs = torch::softmax(policy_->forward(state), 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode
    // CHECK-FIXES: int take_turn(const torch::Tensor &state) {
    // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
    auto action = probs.multinomial(1);
    rollout_.log_probs.push_back(probs.log().gather(1, action));
    return action.item<int>();
  }
  float track_value(const torch::Tensor &state) {
    auto value = critic_->forward(state);
    rollout_.values.push_back(value);
    return value.item<float>();
  }
  float learn(const torch::Tensor &states) {
    return update(policy_, optimizer_, rollout_, states);
  }

private:
  torch::nn::Linear policy_{4, 2}, critic_{4, 1};
  torch::optim::Adam optimizer_{policy_->parameters()};
  Rollout rollout_;
};
// NOTES: member-reads.cpp:[[#@LINE-22]]:33: warning: the model runs forward in evaluation code
// NOTES: member-reads.cpp:[[#@LINE-23]]:33: note: its result is only read as numbers or detached in 'take_turn' and kept in 'log_probs', whose reads differentiate nothing, here or in other files as the project's function summaries say (the first at {{.*}}update.cpp:5:46)
