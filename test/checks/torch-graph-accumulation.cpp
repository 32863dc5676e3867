// RUN: %check_torch_tidy %s torch-graph-accumulation %t
// As built against LibTorch 2.x, whose headers need C++20:
// RUN: %check_torch_tidy --std=c++20 %s torch-graph-accumulation %t.cxx20

#include <torch/torch.h>
#include <cstdio>
#include <functional>
#include <tuple>
#include <vector>

#define ACCUMULATE(acc, value) acc += value

struct Batch {
  torch::Tensor data, target;
};

// ---- Flagged ----------------------------------------------------------------

void compound_assignment(torch::nn::Linear &model, const std::vector<Batch> &batches) {
  torch::Tensor total_loss = torch::zeros({});
  for (const auto &batch : batches) {
    auto loss = torch::mse_loss(model(batch.data), batch.target);
    total_loss += loss;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'total_loss' outlives the iteration and takes on the autograd history of 'loss' every time, so each step's graph and saved activations stay alive and memory grows with every step [torch-graph-accumulation]
    // CHECK-FIXES: total_loss += loss.detach();
  }
}

void self_assignment(torch::nn::Linear &model, const torch::Tensor &x) {
  torch::Tensor total = torch::zeros({});
  for (int step = 0; step < 100; ++step)
    total = total + model(x).sum();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'total' outlives the iteration and takes on the autograd history of 'model(x).sum()'
    // CHECK-FIXES: total = total + model(x).sum().detach();
}

void self_assignment_reversed(torch::nn::Linear &model, const torch::Tensor &x) {
  auto total = torch::zeros({});
  for (int step = 0; step < 100; ++step) {
    auto loss = model(x).mean();
    total = loss * 2 + total;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'total' outlives the iteration and takes on the autograd history of 'loss
    // CHECK-FIXES: total = (loss * 2).detach() + total;
  }
}

void in_place_add(torch::nn::Linear &model, const torch::Tensor &x) {
  torch::Tensor total = torch::zeros({});
  int step = 0;
  while (step++ < 100) {
    auto loss = model(x).sum();
    total.add_(loss);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'total' outlives the iteration and takes on the autograd history of 'loss'
    // CHECK-FIXES: total.add_(loss.detach());
  }
}

// An in-place write into a view of the accumulator writes into it.
void in_place_add_through_view(torch::nn::Linear &model, const torch::Tensor &x) {
  torch::Tensor total = torch::zeros({4});
  for (int step = 0; step < 100; ++step) {
    auto loss = model(x);
    total.view({2, 2}).add_(loss.view({2, 2}));
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'total' outlives the iteration and takes on the autograd history of 'loss.view({2, 2})' every time
    // CHECK-FIXES: total.view({2, 2}).add_(loss.view({2, 2}).detach());
  }
}

void concatenation(torch::nn::Linear &model, const torch::Tensor &x) {
  torch::Tensor all_outputs = torch::empty({0, 1});
  for (int step = 0; step < 100; ++step) {
    auto out = model(x);
    all_outputs = torch::cat({all_outputs, out});
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'all_outputs' outlives the iteration and takes on the autograd history of 'out'
    // CHECK-FIXES: all_outputs = torch::cat({all_outputs, out.detach()});
  }
}

void moving_average(torch::nn::Linear &model, const torch::Tensor &x) {
  torch::Tensor ema = torch::zeros({});
  for (int step = 0; step < 100; ++step) {
    auto loss = model(x).sum();
    ema = 0.99 * ema + 0.01 * loss;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'ema' outlives the iteration and takes on the autograd history of '0.01
    // CHECK-FIXES: ema = 0.99 * ema + (0.01 * loss).detach();
  }
}

void recurrent_state(torch::nn::GRUCell &cell, const std::vector<torch::Tensor> &inputs) {
  torch::Tensor h = torch::zeros({1, 16});
  for (const auto &input : inputs)
    h = cell(input, h);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'h' is fed back into the model every iteration, so its autograd
    // CHECK-FIXES: h = cell(input, h.detach());
}

void recurrent_state_with_backward(torch::nn::GRUCell &cell, torch::nn::Linear &head,
                                   const std::vector<torch::Tensor> &inputs,
                                   torch::optim::SGD &optimizer) {
  torch::Tensor h = torch::zeros({1, 16});
  for (const auto &input : inputs) {
    optimizer.zero_grad();
    h = cell->forward(input, h);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'h' is fed back into the model every iteration, so its autograd
    // CHECK-FIXES: h = cell->forward(input, h.detach());
    head(h).sum().backward();
    optimizer.step();
  }
}

void recurrent_tie(torch::nn::GRU &rnn, const std::vector<torch::Tensor> &inputs) {
  torch::Tensor out, h = torch::zeros({1, 1, 16});
  for (const auto &input : inputs)
    std::tie(out, h) = rnn(input, h);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'h' is fed back into the model every iteration, so its autograd
    // CHECK-FIXES: std::tie(out, h) = rnn(input, h.detach());
}

struct Trainer {
  torch::nn::Linear model{4, 1};
  torch::Tensor running_loss;
  // A member outlives each call: no loop needed.
  void step(const torch::Tensor &x) {
    auto loss = model(x).sum();
    running_loss += loss;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'running_loss' outlives the call and takes on the autograd history of 'loss'
    // CHECK-FIXES: running_loss += loss.detach();
  }
  void step_explicit_this(const torch::Tensor &x) {
    this->running_loss = this->running_loss + model(x).mean();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'running_loss' outlives the call and takes on the autograd history of 'model(x).mean()'
    // CHECK-FIXES: this->running_loss = this->running_loss + model(x).mean().detach();
  }
};

torch::Tensor global_total;
void global_accumulator(torch::nn::Linear &model, const torch::Tensor &x) {
  global_total += model(x).sum();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'global_total' outlives the call and takes on the autograd history of 'model(x).sum()'
  // CHECK-FIXES: global_total += model(x).sum().detach();
}

void static_accumulator(torch::nn::Linear &model, const torch::Tensor &x) {
  static torch::Tensor total = torch::zeros({});
  total += model(x).sum();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'total' outlives the call and takes on the autograd history of 'model(x).sum()'
  // CHECK-FIXES: total += model(x).sum().detach();
}

// The caller's tensor: what a function that trains nothing adds to it is
// for the caller to judge ...
void reference_parameter(torch::Tensor &running, torch::nn::Linear &model,
                         const torch::Tensor &x) {
  running += model(x).sum();
}

// ... which a call site in view does, when what it hands over outlives its
// iteration.
void add_to(torch::Tensor &running, torch::nn::Linear &model,
            const torch::Tensor &x) {
  running += model(x).sum();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'running' outlives the call and takes on the autograd history of 'model(x).sum()'
  // CHECK-MESSAGES: :[[@LINE+7]]:5: note: 'add_to' is called here with an object that outlives the call, so what it stores there builds up
  // CHECK-FIXES: running += model(x).sum().detach();
}

void sums_every_step(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs) {
  torch::Tensor total = torch::zeros({});
  for (const auto &x : xs)
    add_to(total, model, x);
}

// Reset before every update in the iteration: one step's sum, no growth.
void reset_each_step(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs) {
  torch::Tensor step_sum;
  for (const auto &x : xs) {
    step_sum = torch::zeros({});
    step_sum += model(x).sum();
    step_sum += model(x + 1).sum();
  }
}

torch::Tensor compute_loss(torch::nn::Linear &model, const torch::Tensor &x) {
  return model(x).pow(2).mean();
}

void through_a_helper(torch::nn::Linear &model, const torch::Tensor &x) {
  torch::Tensor total = torch::zeros({});
  for (int i = 0; i < 10; ++i)
    total += compute_loss(model, x);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'total' outlives the iteration and takes on the autograd history of 'compute_loss(model,
    // CHECK-FIXES: total += compute_loss(model, x).detach();
}

// A sum over the model's parameters has one term per parameter: its graph
// is bounded by the model, not by time, and where the sum goes is judged
// there (a regulariser added to the loss, a norm read as a number).
void parameters_directly(torch::nn::Linear &model) {
  torch::Tensor norm = torch::zeros({});
  for (const auto &p : model->parameters())
    norm += p.pow(2).sum();
  auto params = model->parameters();
  torch::Tensor l2 = torch::zeros({});
  for (const auto &p : params)
    l2 += p.abs().sum();
}

void requires_grad_tensor() {
  auto w = torch::randn({3}, torch::TensorOptions().requires_grad(true));
  torch::Tensor total = torch::zeros({3});
  for (int i = 0; i < 10; ++i)
    total -= w * 0.1;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'total' outlives the iteration and takes on the autograd history of 'w
    // CHECK-FIXES: total -= (w * 0.1).detach();
}

void structured_binding(torch::nn::LSTM &lstm, const torch::Tensor &x) {
  torch::Tensor total = torch::zeros({});
  for (int i = 0; i < 10; ++i) {
    auto [out, state] = lstm(x);
    total += out.sum();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'total' outlives the iteration and takes on the autograd history of 'out.sum()'
    // CHECK-FIXES: total += out.sum().detach();
  }
}

void in_a_macro(torch::nn::Linear &model, const torch::Tensor &x) {
  torch::Tensor total = torch::zeros({});
  for (int i = 0; i < 10; ++i) {
    auto loss = model(x).sum();
    ACCUMULATE(total, loss);
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'total' outlives the iteration and takes on the autograd history of 'loss'
  }
}

// ---- Not flagged ------------------------------------------------------------

void item_accumulator(torch::nn::Linear &model, const torch::Tensor &x) {
  double total = 0;
  for (int i = 0; i < 10; ++i)
    total += model(x).sum().item<double>();
}

void detached_accumulator(torch::nn::Linear &model, const torch::Tensor &x) {
  torch::Tensor total = torch::zeros({});
  for (int i = 0; i < 10; ++i) {
    total += model(x).sum().detach();
    total = total + model(x).mean().detach();
  }
}

void accuracy_count(torch::nn::Linear &model, const torch::Tensor &x, const torch::Tensor &y) {
  torch::Tensor correct = torch::zeros({});
  for (int i = 0; i < 10; ++i) {
    auto pred = model(x).argmax(1);
    correct += pred.eq(y).sum();
    correct += (model(x) > 0).sum();
  }
}

void integer_conversion(torch::nn::Linear &model, const torch::Tensor &x) {
  torch::Tensor hits = torch::zeros({});
  for (int i = 0; i < 10; ++i)
    hits += model(x).to(torch::kLong).sum();
}

void declared_in_the_loop(torch::nn::Linear &model, const torch::Tensor &x) {
  for (int i = 0; i < 10; ++i) {
    torch::Tensor batch_total = torch::zeros({});
    batch_total += model(x).sum();
    batch_total.backward();
  }
}

void unrolled_sequence(torch::nn::Linear &model, const std::vector<torch::Tensor> &steps,
                       torch::optim::SGD &optimizer) {
  for (int epoch = 0; epoch < 3; ++epoch) {
    torch::Tensor loss = torch::zeros({});
    for (const auto &step : steps)
      loss = loss + model(step).pow(2).mean();
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
}

void micro_batches(torch::nn::Linear &model, const std::vector<torch::Tensor> &micro,
                   torch::optim::SGD &optimizer) {
  torch::Tensor accumulated;
  for (int step = 0; step < 10; ++step) {
    accumulated = torch::zeros({});
    for (const auto &part : micro)
      accumulated += model(part).sum() / 4;
    accumulated.backward();
    optimizer.step();
  }
}

// One batch's per-task losses, summed and handed to the caller's step, a
// std::function: the closure every caller passes backpropagates the sum.
void per_task_losses(torch::nn::Linear &model, torch::nn::Linear &head,
                     const std::vector<torch::Tensor> &batches,
                     const std::function<void(torch::Tensor)> &step) {
  for (const auto &batch : batches) {
    torch::Tensor loss = torch::zeros({});
    auto features = model(batch);
    for (int task = 0; task < 3; ++task)
      loss += head(features).select(1, task).mean();
    step(loss);
  }
}
void trains_per_task(torch::nn::Linear &model, torch::nn::Linear &head,
                     const std::vector<torch::Tensor> &batches,
                     torch::optim::SGD &optimizer) {
  per_task_losses(model, head, batches, [&](torch::Tensor loss) {
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  });
}
// The same, where every closure passed only reads the sum.
void per_task_report(torch::nn::Linear &model, torch::nn::Linear &head,
                     const std::vector<torch::Tensor> &batches,
                     const std::function<void(torch::Tensor)> &step) {
  for (const auto &batch : batches) {
    torch::Tensor loss = torch::zeros({});
    auto features = model(batch);
    for (int task = 0; task < 3; ++task)
      loss += head(features).select(1, task).mean();
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'loss' outlives the iteration and takes on the autograd history of 'head(features).select(1, task).mean()'
    step(loss);
  }
}
void reports_per_task(torch::nn::Linear &model, torch::nn::Linear &head,
                      const std::vector<torch::Tensor> &batches) {
  per_task_report(model, head, batches,
                  [](torch::Tensor loss) { std::printf("%f\n", loss.item<float>()); });
}

void under_a_guard(torch::nn::Linear &model, const torch::Tensor &x) {
  torch::Tensor total = torch::zeros({});
  torch::NoGradGuard no_grad;
  for (int i = 0; i < 10; ++i)
    total += model(x).sum();
}

void under_inference_mode_in_the_loop(torch::nn::Linear &model, const torch::Tensor &x) {
  torch::Tensor total = torch::zeros({});
  for (int i = 0; i < 10; ++i) {
    c10::InferenceMode guard;
    total += model(x).sum();
  }
}

void block_scoped_guard(torch::nn::Linear &model, const torch::Tensor &x) {
  torch::Tensor total = torch::zeros({});
  for (int i = 0; i < 10; ++i) {
    torch::Tensor out;
    {
      torch::NoGradGuard no_grad;
      out = model(x);
    }
    total += out.sum();
  }
}

void plain_overwrite(torch::nn::Linear &model, const torch::Tensor &x) {
  torch::Tensor last_loss;
  for (int i = 0; i < 10; ++i)
    last_loss = model(x).sum();
}

void detached_recurrent_state(torch::nn::GRUCell &cell, const std::vector<torch::Tensor> &inputs) {
  torch::Tensor h = torch::zeros({1, 16});
  for (const auto &input : inputs)
    h = cell(input, h.detach());
}

void data_without_history(const std::vector<torch::Tensor> &inputs) {
  torch::Tensor sum = torch::zeros({4});
  for (const auto &input : inputs)
    sum += input * 2;
}

void unknown_origin(const torch::Tensor &external) {
  torch::Tensor sum = torch::zeros({4});
  for (int i = 0; i < 10; ++i)
    sum += external;
}

void no_loop_local(torch::nn::Linear &model, const torch::Tensor &x) {
  torch::Tensor total = torch::zeros({});
  total += model(x).sum();
}

void guarded_helper(torch::nn::Linear &model, const torch::Tensor &x, torch::Tensor &sink) {
  sink += model(x).sum();
}
void only_called_under_a_guard(torch::nn::Linear &model, const torch::Tensor &x) {
  torch::Tensor sink = torch::zeros({});
  torch::NoGradGuard no_grad;
  guarded_helper(model, x, sink);
}

void nolint(torch::nn::Linear &model, const torch::Tensor &x) {
  torch::Tensor total = torch::zeros({});
  for (int i = 0; i < 10; ++i)
    total += model(x).sum(); // NOLINT(torch-graph-accumulation)
}
