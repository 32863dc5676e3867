// What a function defined in another unit returns, from the summaries that
// torch-tidy --export-summaries wrote for that unit (the FunctionSummaries
// option). Without them, such a function is opaque: handed history, it is
// taken to return history (the OPAQUE run).
// RUN: %torch_tidy -checks='-*,torch-*' --export-summaries=%t.json %S/Inputs/function-summaries/losses.cpp -- %mock_torch > /dev/null
// RUN: %check_torch_tidy %s torch-graph-accumulation %t -- -config="{CheckOptions: {FunctionSummaries: '%t.json'}}" -- -I%S/Inputs/function-summaries
// RUN: %check_torch_tidy --check-suffix=OPAQUE %s torch-graph-accumulation %t.opaque -- -quiet -- -I%S/Inputs/function-summaries

#include "losses.h"
#include <vector>

void log_losses(torch::nn::Linear &model, DetectionLoss &criterion,
                const std::vector<torch::Tensor> &xs) {
  torch::Tensor running = torch::zeros({});
  torch::Tensor logged = torch::zeros({});
  torch::Tensor penalties = torch::zeros({});
  torch::Tensor errors = torch::zeros({});
  torch::Tensor outputs = torch::zeros({});
  for (const auto &x : xs) {
    torch::Tensor loss, parts;
    // The loss module returns its parts detached (element 1).
    std::tie(loss, parts) = criterion->forward(model(x), x);
    running = running + parts;
    // CHECK-MESSAGES-OPAQUE: :[[@LINE-1]]:5: warning: 'running' outlives the iteration and takes on the autograd history of 'parts' every time, so each step's graph and saved activations stay alive and memory grows with every step [torch-graph-accumulation]
    // CHECK-FIXES-OPAQUE: running = running + parts.detach();

    // Element 1 of a make_tuple is the detached loss; element 0 is not.
    auto [l, d] = loss_and_log(model(x), x);
    logged += d;
    // CHECK-MESSAGES-OPAQUE: :[[@LINE-1]]:5: warning: 'logged' outlives the iteration and takes on the autograd history of 'd' every time, so each step's graph and saved activations stay alive and memory grows with every step [torch-graph-accumulation]
    // CHECK-FIXES-OPAQUE: logged += d.detach();
    logged += std::get<0>(loss_and_log(model(x), x));
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'logged' outlives the iteration and takes on the autograd history of 'std::get<0>(loss_and_log(model(x), x))' every time, so each step's graph and saved activations stay alive and memory grows with every step [torch-graph-accumulation]
    // CHECK-MESSAGES-OPAQUE: :[[@LINE-2]]:5: warning: 'logged' outlives the iteration and takes on the autograd history of 'std::get<0>(loss_and_log(model(x), x))' every time, so each step's graph and saved activations stay alive and memory grows with every step [torch-graph-accumulation]
    // CHECK-FIXES: logged += std::get<0>(loss_and_log(model(x), x)).detach();
    // CHECK-FIXES-OPAQUE: logged += std::get<0>(loss_and_log(model(x), x)).detach();

    // Computed under a guard in its body.
    penalties += guarded_penalty(model(x), x);
    // CHECK-MESSAGES-OPAQUE: :[[@LINE-1]]:5: warning: 'penalties' outlives the iteration and takes on the autograd history of 'guarded_penalty(model(x), x)' every time, so each step's graph and saved activations stay alive and memory grows with every step [torch-graph-accumulation]
    // CHECK-FIXES-OPAQUE: penalties += guarded_penalty(model(x), x).detach();

    // Handed history, it returns history: flagged either way.
    errors += squared_error(model(x), x);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'errors' outlives the iteration and takes on the autograd history of 'squared_error(model(x), x)' every time, so each step's graph and saved activations stay alive and memory grows with every step [torch-graph-accumulation]
    // CHECK-MESSAGES-OPAQUE: :[[@LINE-2]]:5: warning: 'errors' outlives the iteration and takes on the autograd history of 'squared_error(model(x), x)' every time, so each step's graph and saved activations stay alive and memory grows with every step [torch-graph-accumulation]
    // CHECK-FIXES: errors += squared_error(model(x), x).detach();
    // CHECK-FIXES-OPAQUE: errors += squared_error(model(x), x).detach();

    // It runs the model it is handed: its result has history even from an
    // input without any.
    outputs += with_model(model, torch::ones({4}));
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'outputs' outlives the iteration and takes on the autograd history of 'with_model(model, torch::ones({4}))' every time, so each step's graph and saved activations stay alive and memory grows with every step [torch-graph-accumulation]
    // CHECK-MESSAGES-OPAQUE: :[[@LINE-2]]:5: warning: 'outputs' outlives the iteration and takes on the autograd history of 'with_model(model, torch::ones({4}))' every time, so each step's graph and saved activations stay alive and memory grows with every step [torch-graph-accumulation]
    // CHECK-FIXES: outputs += with_model(model, torch::ones({4})).detach();
    // CHECK-FIXES-OPAQUE: outputs += with_model(model, torch::ones({4})).detach();
  }
}

// A struct of losses defined in another unit: its total carries history,
// its logged parts are detached there. Without the summary which fields
// carry is not known, and nothing is reported.
void log_struct_losses(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs) {
  torch::Tensor reconstruction = torch::zeros({});
  torch::Tensor totals = torch::zeros({});
  for (const auto &x : xs) {
    auto parts = vae_losses(model(x), x);
    reconstruction += parts.recon;
    totals = totals + parts.total;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'totals' outlives the iteration and takes on the autograd history of 'parts.total' every time, so each step's graph and saved activations stay alive and memory grows with every step [torch-graph-accumulation]
    // CHECK-FIXES: totals = totals + parts.total.detach();
  }
}
