// The growth checks through both front ends on a training program that
// includes the real <torch/torch.h> from libtorch-dev; the fixed file must
// compile against it.
// REQUIRES: libtorch
// RUN: %check_torch_tidy_real %s 'torch-graph-accumulation,torch-graph-in-container,torch-eval-without-grad-guard' %t

#include <torch/torch.h>

#include <vector>

struct NetImpl : torch::nn::Module {
  NetImpl() : fc(register_module("fc", torch::nn::Linear(8, 1))) {}
  torch::Tensor forward(const torch::Tensor &x) { return fc(x); }
  torch::nn::Linear fc;
};
TORCH_MODULE(Net);

double train_epoch(Net &model, torch::optim::SGD &optimizer,
                   const std::vector<torch::Tensor> &batches, const torch::Tensor &y) {
  torch::Tensor epoch_loss = torch::zeros({});
  double logged = 0;
  for (const auto &batch : batches) {
    optimizer.zero_grad();
    auto loss = torch::mse_loss(model->forward(batch), y);
    loss.backward();
    optimizer.step();
    epoch_loss += loss;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'epoch_loss' outlives the iteration and takes on the autograd history of 'loss' every time; backward() has freed the saved activations, but each step's autograd graph nodes stay alive and host memory grows with every step [torch-graph-accumulation]
    // CHECK-FIXES: epoch_loss += loss.detach();
    logged += loss.item<double>();
  }
  return epoch_loss.item<double>() + logged;
}

void log_state(const torch::Tensor &h); // defined elsewhere

void recurrent(torch::nn::GRUCell &cell, const std::vector<torch::Tensor> &inputs) {
  torch::Tensor h = torch::zeros({1, 16});
  for (const auto &input : inputs)
    h = cell(input, h);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'h' is fed back into the model every iteration
  // CHECK-FIXES: h = cell(input, h.detach());
  log_state(h);
}

void collect(Net &model, const std::vector<torch::Tensor> &batches,
             std::vector<torch::Tensor> &outputs) {
  for (const auto &batch : batches)
    outputs.push_back(model->forward(batch));
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'outputs' outlives the call and each time a tensor that carries autograd history is stored in it
  // CHECK-FIXES: outputs.push_back(model->forward(batch).detach());
  // Nothing differentiates what it keeps: evaluation code, too.
  // CHECK-MESSAGES: :[[@LINE-4]]:23: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode
}

// The caller keeps every epoch's outputs in one vector.
void collect_epochs(Net &model, const std::vector<torch::Tensor> &batches) {
  std::vector<torch::Tensor> all;
  for (int epoch = 0; epoch < 3; ++epoch)
    collect(model, batches, all);
}

double evaluate(Net &model, const torch::Tensor &x, const torch::Tensor &y) {
  model->eval();
  return torch::mse_loss(model->forward(x), y).item<double>();
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: the model runs forward in evaluation code with no torch::NoGradGuard or c10::InferenceMode
  // CHECK-FIXES: model->eval();
  // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
}

// Not flagged: guarded evaluation (NoGradGuard, torch::InferenceMode), outputs
// kept under AutoGradMode(false), item() accumulation, a sequence loss
// backward-ed after the loop.
double evaluate_guarded(Net &model, const torch::Tensor &x) {
  torch::NoGradGuard no_grad;
  return model->forward(x).mean().item<double>();
}

double evaluate_inference_mode(Net &model, const torch::Tensor &x) {
  torch::InferenceMode guard;
  return model->forward(x).mean().item<double>();
}

std::vector<torch::Tensor> collect_without_grad(Net &model,
                                                const std::vector<torch::Tensor> &batches) {
  std::vector<torch::Tensor> outputs;
  for (const auto &batch : batches) {
    at::AutoGradMode no_grad(false);
    outputs.push_back(model->forward(batch));
  }
  return outputs;
}

void unrolled(Net &model, const std::vector<torch::Tensor> &steps) {
  torch::Tensor loss = torch::zeros({});
  for (const auto &step : steps)
    loss = loss + model->forward(step).pow(2).mean();
  loss.backward();
}
