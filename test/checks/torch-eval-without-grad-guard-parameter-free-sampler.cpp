// A module of the user's that holds no parameter (a sampler drawing from an
// analytic distribution) records nothing when run on nothing with history,
// as the bodies a call of its virtual forward may run say: the method's own
// and every overrider's in view, each from the project's summaries
// (Inputs/virtual-sampler/sampler.cpp), the distribution's pure virtual
// draws answered by their overriders' bodies in turn. Without the summaries
// (OPAQUE) nothing is known of those bodies, and the call is taken for a
// forward pass. The flow that follows runs under a guard.
// RUN: %torch_tidy -checks='-*,torch-*' --no-cache --export-summaries=%t.json %S/Inputs/virtual-sampler/sampler.cpp -- %mock_torch -I%S/Inputs/virtual-sampler > /dev/null
// RUN: %check_torch_tidy %s torch-eval-without-grad-guard %t -- -config="{CheckOptions: {FunctionSummaries: '%t.json'}}" -- -I%S/Inputs/virtual-sampler
// RUN: %check_torch_tidy --check-suffix=OPAQUE %s torch-eval-without-grad-guard %t.opaque -- -quiet -- -I%S/Inputs/virtual-sampler

#include "sampler.h"
#include <memory>
#include <vector>

class Trainer {
public:
  torch::Tensor sample(int n) {
    // CHECK-FIXES-OPAQUE: {{^}}    torch::NoGradGuard no_grad;{{$}}
    auto x = prior->forward(n);
    // CHECK-MESSAGES-OPAQUE: :[[@LINE-1]]:14: warning: the model runs forward in evaluation code
    torch::NoGradGuard no_grad_guard;
    return flow->forward(x).detach();
  }

  std::shared_ptr<Sampler> prior;
  Flow flow;
};

double integrate(Trainer &trainer) {
  double total = 0;
  for (int i = 0; i < 100; ++i)
    total += trainer.sample(64).mean().item<double>();
  return total;
}
