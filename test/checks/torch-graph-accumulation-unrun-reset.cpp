// A module's state fed back on every forward is bounded on purpose when the
// module offers a reset: its user runs each sequence from one. A reset the
// program never runs bounds nothing. In a program (a unit defines `main`),
// a reset that no unit calls or names runs nowhere; the driver
// (Inputs/unrun-reset/driver.cpp) steps the policy through episodes and,
// unless CALL_RESET, never resets it.
// RUN: %torch_tidy -checks='-*,torch-*' --no-cache --export-summaries=%t.json %S/Inputs/unrun-reset/driver.cpp -- %mock_torch -I%S/Inputs/unrun-reset > /dev/null
// RUN: %check_torch_tidy %s torch-graph-accumulation %t -- -config="{CheckOptions: {FunctionSummaries: '%t.json'}}" -- -I%S/Inputs/unrun-reset
// The driver resets the policy after each episode: bounded (quiet).
// RUN: %torch_tidy -checks='-*,torch-*' --no-cache --export-summaries=%t.reset.json %S/Inputs/unrun-reset/driver.cpp -- %mock_torch -I%S/Inputs/unrun-reset -DCALL_RESET > /dev/null
// RUN: %check_torch_tidy --check-suffix=RESET %s torch-graph-accumulation %t.reset -- -config="{CheckOptions: {FunctionSummaries: '%t.reset.json'}}" -- -I%S/Inputs/unrun-reset
// No unit defines `main` (a library): its user may reset it (quiet).
// RUN: %torch_tidy -checks='-*,torch-*' --no-cache --export-summaries=%t.lib.json %S/Inputs/unrun-reset/driver.cpp -- %mock_torch -I%S/Inputs/unrun-reset -DLIBRARY > /dev/null
// RUN: %check_torch_tidy --check-suffix=LIBRARY %s torch-graph-accumulation %t.lib -- -config="{CheckOptions: {FunctionSummaries: '%t.lib.json'}}" -- -I%S/Inputs/unrun-reset
// Without summaries, code out of view may reset it (quiet).
// RUN: %check_torch_tidy --check-suffix=ALONE %s torch-graph-accumulation %t.alone -- -quiet -- -I%S/Inputs/unrun-reset
// A call of the reset in this unit runs it (quiet).
// RUN: %check_torch_tidy --check-suffix=HERE %s torch-graph-accumulation %t.here -- -config="{CheckOptions: {FunctionSummaries: '%t.json'}}" -- -I%S/Inputs/unrun-reset -DRESET_HERE

#include "recurrent_policy.h"

torch::Tensor RecurrentPolicyImpl::forward(const torch::Tensor &x, bool keep_state) {
  // The state is carried whole only when asked; otherwise a detached copy.
  std::tuple<torch::Tensor, torch::Tensor> hidden;
  if (keep_state)
    hidden = hx;
  else
    hidden = std::make_tuple(std::get<0>(hx).detach(), std::get<1>(hx).detach());
  auto out = lstm->forward(x, hidden);
  if (keep_state) {
    hx = std::get<1>(out);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'hx' is fed back into the model every iteration, so its autograd history chains all iterations together: memory grows with every step (and backward() needs retain_graph=true) [torch-graph-accumulation]
  }
  return head(std::get<0>(out)[0]);
}

void RecurrentPolicyImpl::reset() {
  std::get<0>(hx) = torch::zeros({1, 1, 8});
  std::get<1>(hx) = torch::zeros({1, 1, 8});
}

#ifdef RESET_HERE
void start_episode(RecurrentPolicy &policy) { policy->reset(); }
#endif
