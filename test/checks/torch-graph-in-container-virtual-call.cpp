// An override's parameter takes what calls of the method it overrides pass:
// the base class, in another unit (detector_base.cpp), hands the backbone's
// features to the virtual `decode`, and this detector's override keeps a
// slice of them in a member on every call. From that unit's summaries the
// store is reported, with a note at the call; without them the parameter is
// of unknown origin (the OPAQUE run).
// RUN: %torch_tidy -checks='-*,torch-*' --no-cache --export-summaries=%t.json %S/Inputs/virtual-call/detector_base.cpp -- %mock_torch -I%S/Inputs/virtual-call > /dev/null
// RUN: %check_torch_tidy %s torch-graph-in-container %t -- -config="{CheckOptions: {FunctionSummaries: '%t.json'}}" -- -I%S/Inputs/virtual-call
// RUN: %check_torch_tidy --check-suffix=OPAQUE %s torch-graph-in-container %t.opaque -- -quiet -- -I%S/Inputs/virtual-call
// RUN: %torch_tidy -checks='-*,torch-graph-in-container' --config="{CheckOptions: {FunctionSummaries: '%t.json'}}" %s -- %mock_torch -I%S/Inputs/virtual-call | FileCheck %s --check-prefix=NOTES
// RUN: %clang_tidy_plugin -checks='-*,torch-graph-in-container' --config="{CheckOptions: {FunctionSummaries: '%t.json'}}" %s -- %mock_torch -I%S/Inputs/virtual-call | FileCheck %s --check-prefix=NOTES

#include "detector.h"

void CachingDetector::decode(const torch::Tensor &features) {
  for (int64_t level = 0; level < 2; ++level) {
    levels_.push_back(features.slice(0, level, level + 1));
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'levels_' outlives the call and each time a tensor that carries autograd history is stored in it
    // CHECK-FIXES: levels_.push_back(features.slice(0, level, level + 1).detach());
    sizes_.push_back(features.size(0));
  }
}
// NOTES: virtual-call.cpp:17:5: warning: 'levels_' outlives the call
// NOTES: virtual-call.cpp:15:51: note: 'features' is handed a tensor that carries autograd history by a call in another file, at {{.*}}detector_base.cpp:5:3
