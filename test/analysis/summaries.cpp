// H of calls into functions whose bodies are in another unit: from that
// unit's function summaries (FunctionSummaries), or by the rule for opaque
// calls without them (OPAQUE). And H of the parameters of functions whose
// only callers are in another unit: what those calls pass, or unknown.
// RUN: %torch_tidy -checks='-*,torch-*' --no-cache --export-summaries=%t.json %S/../checks/Inputs/function-summaries/losses.cpp %S/../checks/Inputs/function-summaries/callers.cpp -- %mock_torch -I%S/../checks/Inputs/function-summaries > /dev/null
// RUN: %analysis_dump --summaries=%t.json %s -- %mock_torch -I%S/../checks/Inputs/function-summaries | sort -t: -k1,1n | FileCheck %s -implicit-check-not=history=
// RUN: %analysis_dump %s -- %mock_torch -I%S/../checks/Inputs/function-summaries | sort -t: -k1,1n | FileCheck %s --check-prefix=OPAQUE -implicit-check-not=history=

#include "losses.h"
#include "metrics.h"

void probe_history(const torch::Tensor &);

void calls(torch::nn::Linear &model, DetectionLoss &criterion, const torch::Tensor &x) {
  auto out = model(x);
  // Element 1 of the loss module's result is detached; element 0 is not.
  probe_history(std::get<1>(criterion->forward(out, x)));
  // CHECK: [[@LINE-1]]:3: history=no
  // OPAQUE: [[@LINE-2]]:3: history=yes
  probe_history(std::get<0>(criterion->forward(out, x)));
  // CHECK: [[@LINE-1]]:3: history=yes
  // OPAQUE: [[@LINE-2]]:3: history=yes
  auto [loss, logged] = loss_and_log(out, x);
  probe_history(logged);
  // CHECK: [[@LINE-1]]:3: history=no
  // OPAQUE: [[@LINE-2]]:3: history=yes
  probe_history(loss);
  // CHECK: [[@LINE-1]]:3: history=yes
  // OPAQUE: [[@LINE-2]]:3: history=yes
  // Its body computes under a guard.
  probe_history(guarded_penalty(out, x));
  // CHECK: [[@LINE-1]]:3: history=no
  // OPAQUE: [[@LINE-2]]:3: history=yes
  // Returned under a guard: what was drawn under it carries nothing, what
  // was computed before it keeps its graph.
  probe_history(std::get<0>(sample_and_value(out)));
  // CHECK: [[@LINE-1]]:3: history=no
  // OPAQUE: [[@LINE-2]]:3: history=yes
  probe_history(std::get<1>(sample_and_value(out)));
  // CHECK: [[@LINE-1]]:3: history=yes
  // OPAQUE: [[@LINE-2]]:3: history=yes
  // Handed history, it returns history; handed none, none.
  probe_history(squared_error(out, x));
  // CHECK: [[@LINE-1]]:3: history=yes
  // OPAQUE: [[@LINE-2]]:3: history=yes
  probe_history(squared_error(torch::ones({4}), torch::zeros({4})));
  // CHECK: [[@LINE-1]]:3: history=no
  // OPAQUE: [[@LINE-2]]:3: history=unknown
  // It runs the model it is handed, whatever the input.
  probe_history(with_model(model, torch::ones({4})));
  // CHECK: [[@LINE-1]]:3: history=yes
  // OPAQUE: [[@LINE-2]]:3: history=yes
  // The fields of a returned struct of losses, one by one: the total
  // carries, its logged parts are detached. Without the summary, which
  // fields carry is not known.
  auto parts = vae_losses(out, x);
  probe_history(parts.total);
  // CHECK: [[@LINE-1]]:3: history=yes
  // OPAQUE: [[@LINE-2]]:3: history=unknown
  probe_history(parts.recon);
  // CHECK: [[@LINE-1]]:3: history=no
  // OPAQUE: [[@LINE-2]]:3: history=unknown
  probe_history(vae_losses(out, x).kl);
  // CHECK: [[@LINE-1]]:3: history=no
  // OPAQUE: [[@LINE-2]]:3: history=unknown
}

void RunningMetrics::add_loss(const torch::Tensor &loss) {
  probe_history(loss);
  // CHECK: [[@LINE-1]]:3: history=yes
  // OPAQUE: [[@LINE-2]]:3: history=unknown
}
// Passed model(x), with no guard: history.
void RunningMetrics::add_output(const torch::Tensor &output) {
  probe_history(output);
  // CHECK: [[@LINE-1]]:3: history=yes
  // OPAQUE: [[@LINE-2]]:3: history=unknown
}
// Passed loss.detach(), and a value computed under a guard: none known.
void RunningMetrics::add_clean(const torch::Tensor &loss) {
  probe_history(loss);
  // CHECK: [[@LINE-1]]:3: history=unknown
  // OPAQUE: [[@LINE-2]]:3: history=unknown
}

// Members that methods of another unit leave holding history (summaries:
// StepState::step in losses.cpp), or detached.
void StepState::read() {
  probe_history(last_);
  // CHECK: [[@LINE-1]]:3: history=yes
  // OPAQUE: [[@LINE-2]]:3: history=unknown
  probe_history(clean_);
  // CHECK: [[@LINE-1]]:3: history=unknown
  // OPAQUE: [[@LINE-2]]:3: history=unknown
}
