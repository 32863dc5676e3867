// Is a value handed to a method of another unit (buffer.cpp) kept in the
// method's object? The summaries of buffer.cpp say that no method there
// leaves history in a member of ReplayBuffer (`add` stores copies cut from
// the graph), and that KeepingBuffer::add keeps what it is handed. Without
// the summaries (OPAQUE), each buffer is taken to keep it, and the training
// step that samples the buffer to differentiate it.
// What a method leaves in a member is worked out from what its callers
// pass: summaries of buffer.cpp alone, where no call passes a graph, say
// nothing of it (ALONE, as OPAQUE).
// RUN: %torch_tidy -checks='-*,torch-*' --no-cache --export-summaries=%t.json %S/../project/Inputs/detached-buffer/src/buffer.cpp %S/../project/Inputs/detached-buffer/src/train.cpp -- %mock_torch -I%S/../project/Inputs/detached-buffer/include > /dev/null
// RUN: %analysis_dump --summaries=%t.json %s -- %mock_torch -I%S/../project/Inputs/detached-buffer/include | sort -t: -k1,1n | FileCheck %s -implicit-check-not=discarded=
// RUN: %analysis_dump %s -- %mock_torch -I%S/../project/Inputs/detached-buffer/include | sort -t: -k1,1n | FileCheck %s --check-prefix=OPAQUE -implicit-check-not=discarded=
// RUN: %torch_tidy -checks='-*,torch-*' --no-cache --export-summaries=%t.alone.json %S/../project/Inputs/detached-buffer/src/buffer.cpp -- %mock_torch -I%S/../project/Inputs/detached-buffer/include > /dev/null
// RUN: %analysis_dump --summaries=%t.alone.json %s -- %mock_torch -I%S/../project/Inputs/detached-buffer/include | sort -t: -k1,1n | FileCheck %s --check-prefix=OPAQUE -implicit-check-not=discarded=

#include "agent.h"

// Defined here, so that handing a value to it is seen to do nothing.
void probe_discarded(const torch::Tensor &) {}

void detached(torch::nn::Linear &policy, torch::optim::SGD &opt) {
  ReplayBuffer buffer;
  auto action = policy(torch::rand({1, 4}));
  probe_discarded(action);
  // CHECK: [[@LINE-1]]:3: discarded=yes
  // OPAQUE: [[@LINE-2]]:3: discarded=no
  buffer.add(torch::rand({1, 4}), action);
  auto loss = policy(buffer.sample_states()).pow(2).mean();
  loss.backward();
  opt.step();
}

void kept(torch::nn::Linear &policy, torch::optim::SGD &opt) {
  KeepingBuffer buffer;
  auto action = policy(torch::rand({1, 4}));
  probe_discarded(action);
  // CHECK: [[@LINE-1]]:3: discarded=no
  // OPAQUE: [[@LINE-2]]:3: discarded=no
  buffer.add(action);
  auto loss = buffer.sample().pow(2).mean();
  loss.backward();
  opt.step();
}
