// A serving wrapper returns what a TorchScript model computes to callers in
// files that are not analysed (a ROS node that does not build here). With
// nothing else known, those callers may differentiate it: quiet, the
// BARE run. The project's function summaries are evidence: when no unit of
// the project runs a backward pass or an optimizer step, nothing out of
// view differentiates the result either, and the wrapper is evaluation
// code (flagged, with a note on the assumption). Summaries of a project
// with one unit that trains are no such evidence (quiet, the TRAINS run).
// RUN: %torch_tidy -checks='-*,torch-*' --no-cache --export-summaries=%t.json %s %S/Inputs/trains-nowhere/loader.cpp -- %mock_torch -I%S/Inputs/trains-nowhere > /dev/null
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: %check_torch_tidy %s torch-eval-without-grad-guard %t -- -config="{CheckOptions: {FunctionSummaries: '%t.json'}}" -- -I%S/Inputs/trains-nowhere
// RUN: %torch_tidy -checks='-*,torch-eval-without-grad-guard' -config="{CheckOptions: {FunctionSummaries: '%t.json'}}" %s -- %mock_torch -I%S/Inputs/trains-nowhere | FileCheck %s --check-prefix=NOTES
// RUN: %clang_tidy_plugin -checks='-*,torch-eval-without-grad-guard' -config="{CheckOptions: {FunctionSummaries: '%t.json'}}" %s -- %mock_torch -I%S/Inputs/trains-nowhere | FileCheck %s --check-prefix=NOTES
// RUN: %torch_tidy -checks='-*,torch-eval-without-grad-guard' %s -- %mock_torch -I%S/Inputs/trains-nowhere | FileCheck %s --check-prefix=QUIET --allow-empty
// RUN: %torch_tidy -checks='-*,torch-*' --no-cache --export-summaries=%t.trains.json %s %S/Inputs/trains-nowhere/loader.cpp %S/Inputs/trains-nowhere/trainer.cpp -- %mock_torch -I%S/Inputs/trains-nowhere > /dev/null
// RUN: FileCheck %s --check-prefix=JSON-TRAINS < %t.trains.json
// RUN: %torch_tidy -checks='-*,torch-eval-without-grad-guard' -config="{CheckOptions: {FunctionSummaries: '%t.trains.json'}}" %s -- %mock_torch -I%S/Inputs/trains-nowhere | FileCheck %s --check-prefix=QUIET --allow-empty
// RUN: %clang_tidy_plugin -checks='-*,torch-eval-without-grad-guard' -config="{CheckOptions: {FunctionSummaries: '%t.trains.json'}}" %s -- %mock_torch -I%S/Inputs/trains-nowhere | FileCheck %s --check-prefix=QUIET --allow-empty

// JSON: "training": ""
// JSON-TRAINS: "training": "{{.*}}trainer.cpp:7:3"
// QUIET-NOT: warning:

#include "ros_segmenter.h"

at::Tensor Segmenter::get_output(at::Tensor input) {
  auto outputs = module_.forward({input});
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: the model runs forward in evaluation code
  at::Tensor segmentation;
  if (aux_) {
    auto both = outputs.toTuple();
    segmentation = both->elements()[0].toTensor() + 0.5 * both->elements()[1].toTensor();
  } else {
    segmentation = outputs.toTensor();
  }
  return segmentation;
}
// CHECK-FIXES: {{^}}at::Tensor Segmenter::get_output(at::Tensor input) {
// CHECK-FIXES-NEXT: {{^}}  torch::NoGradGuard no_grad;{{$}}
// NOTES: trains-nowhere.cpp:[[#@LINE-13]]:18: warning: the model runs forward in evaluation code
// NOTES: trains-nowhere.cpp:[[#@LINE-14]]:18: note: no file of the project runs a backward pass or an optimizer step, as its function summaries say: code out of view that gets the result is taken not to differentiate it or keep it

