// A TorchScript value handed to a virtual method carries the history of the
// tensors it holds: the base class, in another unit (traced_detector.cpp),
// hands its traced backbone's output (an IValue) to the virtual `decode`,
// and this detector's override passes it to a helper that keeps one slice
// of it per level in a member on every call, never clearing it. From that
// unit's summaries the store is reported, with a note at the call; without
// them the parameter is of unknown origin (the OPAQUE run).
// RUN: %torch_tidy -checks='-*,torch-*' --no-cache --export-summaries=%t.json %S/Inputs/virtual-ivalue/traced_detector.cpp -- %mock_torch -I%S/Inputs/virtual-ivalue > /dev/null
// RUN: %check_torch_tidy %s torch-graph-in-container %t -- -config="{CheckOptions: {FunctionSummaries: '%t.json'}}" -- -I%S/Inputs/virtual-ivalue
// RUN: %check_torch_tidy --check-suffix=OPAQUE %s torch-graph-in-container %t.opaque -- -quiet -- -I%S/Inputs/virtual-ivalue
// RUN: %torch_tidy -checks='-*,torch-graph-in-container' --config="{CheckOptions: {FunctionSummaries: '%t.json'}}" %s -- %mock_torch -I%S/Inputs/virtual-ivalue | FileCheck %s --check-prefix=NOTES
// RUN: %clang_tidy_plugin -checks='-*,torch-graph-in-container' --config="{CheckOptions: {FunctionSummaries: '%t.json'}}" %s -- %mock_torch -I%S/Inputs/virtual-ivalue | FileCheck %s --check-prefix=NOTES

#include "traced_detector.h"

void LevelDetector::split_levels(const c10::IValue &output) {
  scores_ = output.toTuple()->elements()[0].toTensor();
  torch::Tensor features = output.toTuple()->elements()[1].toTensor();
  for (int64_t level = 0; level < 2; ++level) {
    torch::Tensor layer = features.slice(0, level, level + 1).view({1, -1});
    levels_.push_back(layer);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'levels_' outlives the call and each time a tensor that carries autograd history is stored in it
    // CHECK-FIXES: levels_.push_back(layer.detach());
  }
}

void LevelDetector::decode(const c10::IValue &output) {
  split_levels(output);
  scores_.sigmoid_();
}
// NOTES: virtual-ivalue.cpp:21:5: warning: 'levels_' outlives the call
// NOTES: virtual-ivalue.cpp:28:3: note: 'split_levels' is called here with a tensor that carries autograd history
