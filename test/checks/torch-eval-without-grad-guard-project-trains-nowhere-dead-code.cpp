// In a program none of whose files trains, a virtual stage run by code out
// of view is evaluation code (flagged, with the note); a function that no
// file of the program refers to runs nowhere, and nothing is assumed of
// callers it does not have (quiet).
// RUN: %torch_tidy -checks='-*,torch-*' --no-cache --export-summaries=%t.json %s %S/Inputs/trains-nowhere/program.cpp -- %mock_torch -I%S/Inputs/trains-nowhere > /dev/null
// RUN: %check_torch_tidy %s torch-eval-without-grad-guard %t -- -config="{CheckOptions: {FunctionSummaries: '%t.json'}}" -- -I%S/Inputs/trains-nowhere
// RUN: %clang_tidy_plugin -checks='-*,torch-eval-without-grad-guard' -config="{CheckOptions: {FunctionSummaries: '%t.json'}}" %s -- %mock_torch -I%S/Inputs/trains-nowhere | FileCheck %s --check-prefix=NOTES

#include "stage.h"

at::Tensor FeatureStage::pop(const at::Tensor &frame) {
  return transform.forward({frame}).toTensor();
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: the model runs forward in evaluation code
}
// CHECK-FIXES: {{^}}at::Tensor FeatureStage::pop(const at::Tensor &frame) {
// CHECK-FIXES-NEXT: {{^}}  torch::NoGradGuard no_grad;{{$}}
// NOTES: dead-code.cpp:[[#@LINE-5]]:10: warning: the model runs forward in evaluation code
// NOTES: note: no file of the project runs a backward pass or an optimizer step
// NOTES-NOT: dead-code.cpp:[[#@LINE+3]]:{{.*}}warning:

at::Tensor FeatureStage::project(const at::Tensor &frame) {
  return transform.forward({frame * 2}).toTensor();
}
