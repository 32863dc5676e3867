// A template defined in a header and checked through the header alone (as a
// project run checks each listed file): the unit has the pattern and no
// instantiation of it. The project's summaries record a call of an
// instantiation under the pattern's key too, so the pattern is entered as
// the calls of the other units are: here only under a guard
// (Inputs/template-called-elsewhere/caller.cpp), so quiet with the
// summaries; without them (OPAQUE) nothing is known of its callers and it is
// flagged.
// RUN: %torch_tidy -checks='-*,torch-*' --no-cache --export-summaries=%t.json %S/Inputs/template-called-elsewhere/caller.cpp -- %mock_torch -I%S > /dev/null
// RUN: %check_torch_tidy %s torch-eval-without-grad-guard %t -- -config="{CheckOptions: {FunctionSummaries: '%t.json'}}"
// RUN: %check_torch_tidy --check-suffix=OPAQUE %s torch-eval-without-grad-guard %t.opaque -- -quiet

#include <torch/torch.h>

struct NetImpl : torch::nn::Module {
  torch::nn::Linear fc{4, 2};
  torch::Tensor forward(const torch::Tensor &x) { return fc(x); }
};
TORCH_MODULE(Net);

template <typename Batches>
float evaluate_all(Net &net, const Batches &batches) {
  // CHECK-FIXES-OPAQUE: {{^}}  torch::NoGradGuard no_grad;{{$}}
  net->eval();
  float total = 0;
  for (const auto &batch : batches) {
    torch::Tensor input = batch;
    total += net->forward(input).sum().item<float>();
    // CHECK-MESSAGES-OPAQUE: :[[@LINE-1]]:14: warning: the model runs forward in evaluation code
  }
  return total;
}
