// Is a value's history thrown away when it is kept in a member that code of
// another unit reads (update.cpp)? The summaries say what every read of a
// member does with what it holds: the log-probabilities are read only
// detached, the values are backpropagated. Without the summaries (OPAQUE),
// a member that code out of view may read may be differentiated there.
// RUN: %torch_tidy -checks='-*,torch-*' --no-cache --export-summaries=%t.json %S/../checks/Inputs/member-reads/update.cpp %s -- %mock_torch -I%S/../checks/Inputs/member-reads > /dev/null
// RUN: FileCheck %s --check-prefix=SUMS < %t.json
// RUN: %analysis_dump --summaries=%t.json %s -- %mock_torch -I%S/../checks/Inputs/member-reads | sort -t: -k1,1n | FileCheck %s -implicit-check-not=discarded=
// RUN: %analysis_dump %s -- %mock_torch -I%S/../checks/Inputs/member-reads | sort -t: -k1,1n | FileCheck %s --check-prefix=OPAQUE -implicit-check-not=discarded=

#include "rollout.h"

// Defined here, so that handing a value to it is seen to do nothing.
void probe_discarded(const torch::Tensor &) {}

int act_log_prob(torch::nn::Linear &policy, const torch::Tensor &state,
                 Rollout &rollout) {
  auto probs = torch::softmax(policy->forward(state), 1);
  probe_discarded(probs);
  // CHECK: [[@LINE-1]]:3: discarded=yes
  // OPAQUE: [[@LINE-2]]:3: discarded=no
  auto action = probs.argmax(1);
  rollout.log_probs.push_back(probs.log());
  return action.item<int>();
}

int act_value(torch::nn::Linear &critic, const torch::Tensor &state,
              Rollout &rollout) {
  auto value = critic->forward(state);
  probe_discarded(value);
  // CHECK: [[@LINE-1]]:3: discarded=no
  // OPAQUE: [[@LINE-2]]:3: discarded=no
  rollout.values.push_back(value);
  return 0;
}

// Each member with a read: whether one may be differentiated, and where the
// first (that may) is. Writes (push_back, clear) are not reads.
// SUMS: "member_reads": [
// SUMS-NEXT: {
// SUMS-NEXT: "at": "{{.*}}update.cpp:5:46",
// SUMS-NEXT: "differentiated": false,
// SUMS-NEXT: "member": "Rollout::log_probs"
// SUMS-NEXT: },
// SUMS-NEXT: {
// SUMS-NEXT: "at": "{{.*}}update.cpp:6:43",
// SUMS-NEXT: "differentiated": true,
// SUMS-NEXT: "member": "Rollout::values"
// SUMS-NEXT: }
// SUMS-NEXT: ],
