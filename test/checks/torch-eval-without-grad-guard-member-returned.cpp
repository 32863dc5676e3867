// A forward whose output a private member keeps (the image embedding of a
// segmenter), read by a method that returns what it computes from it (the
// masks), is evaluation code when every caller of that method drops what
// it returns: here the callers are in another unit (Inputs/member-returned/
// app.cpp), and the project's summaries say what they do. The decoder's
// forward, returned to the same callers, is evaluation code by the same
// evidence.
// RUN: %torch_tidy -checks='-*,torch-*' --no-cache --export-summaries=%t.json %S/Inputs/member-returned/app.cpp -- %mock_torch -I%S/Inputs/member-returned > /dev/null
// RUN: %check_torch_tidy %s torch-eval-without-grad-guard %t -- -config="{CheckOptions: {FunctionSummaries: '%t.json'}}" -- -I%S/Inputs/member-returned
// A caller that differentiates the masks: both forwards record what it needs.
// RUN: %torch_tidy -checks='-*,torch-*' --no-cache --export-summaries=%t.trains.json %S/Inputs/member-returned/app.cpp -- %mock_torch -I%S/Inputs/member-returned -DTRAINS > /dev/null
// RUN: %check_torch_tidy --check-suffix=TRAINS %s torch-eval-without-grad-guard %t.trains -- -config="{CheckOptions: {FunctionSummaries: '%t.trains.json'}}" -- -I%S/Inputs/member-returned
// Without the summaries, the callers are out of view and may differentiate.
// RUN: %check_torch_tidy --check-suffix=OPAQUE %s torch-eval-without-grad-guard %t.opaque -- -quiet -- -I%S/Inputs/member-returned
// The notes, through both front ends:
// RUN: %torch_tidy -checks='-*,torch-eval-without-grad-guard' --config="{CheckOptions: {FunctionSummaries: '%t.json'}}" %s -- %mock_torch -I%S/Inputs/member-returned | FileCheck %s --check-prefix=NOTES
// RUN: %clang_tidy_plugin -checks='-*,torch-eval-without-grad-guard' --config="{CheckOptions: {FunctionSummaries: '%t.json'}}" %s -- %mock_torch -I%S/Inputs/member-returned | FileCheck %s --check-prefix=NOTES

#include "segmenter.h"

Segmenter::Segmenter(const std::string &encoder, const std::string &decoder)
    : encoder_(torch::jit::load(encoder)), decoder_(torch::jit::load(decoder)) {}

void Segmenter::setImage(const torch::Tensor &image) {
  // CHECK-FIXES: {{^}}  torch::NoGradGuard no_grad;{{$}}
  features_ = encoder_.forward({image}).toTensor();
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode, so every call records an autograd graph and keeps its activations alive as long as the outputs [torch-eval-without-grad-guard]
}

torch::Tensor Segmenter::segment(const torch::Tensor &points) {
  // CHECK-FIXES: {{^}}  torch::NoGradGuard no_grad;{{$}}
  return decoder_.forward({features_, points}).toTensor().sigmoid();
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode, so every call records an autograd graph and keeps its activations alive as long as the outputs [torch-eval-without-grad-guard]
}
// NOTES: member-returned.cpp:[[#@LINE-9]]:15: note: its result is only read as numbers or detached in 'setImage' and kept in 'features_', a private member that only its class reads (the callers of the methods that return what is computed from it drop that): nothing differentiates it
// NOTES-NEXT: member-returned.cpp:[[#@LINE-10]]:15: note: callers in other files do not differentiate what is returned to them, as the project's function summaries say (the first at {{.*}}app.cpp:12:27)
// NOTES-NEXT: member-returned.cpp:24:17: note: 'setImage' is called only in other files, as the project's function summaries say (the first at {{.*}}app.cpp:10:5): it is taken to run again and again
// NOTES: member-returned.cpp:[[#@LINE-6]]:10: note: its result is only read as numbers or detached and dropped in 'segment' and in the callers it is handed back to (returned, or written into an out-parameter): nothing differentiates it
// NOTES-NEXT: member-returned.cpp:[[#@LINE-7]]:10: note: callers in other files do not differentiate what is returned to them, as the project's function summaries say (the first at {{.*}}app.cpp:12:27)
// NOTES-NEXT: member-returned.cpp:30:26: note: 'segment' is called only in other files, as the project's function summaries say (the first at {{.*}}app.cpp:12:27): it is taken to run again and again
