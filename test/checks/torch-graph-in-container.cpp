// RUN: %check_torch_tidy %s torch-graph-in-container %t
// As built against LibTorch 2.x, whose headers need C++20:
// RUN: %check_torch_tidy --std=c++20 %s torch-graph-in-container %t.cxx20

#include <torch/torch.h>
#include <deque>
#include <list>
#include <map>
#include <string>
#include <vector>

#define KEEP(list, value) list.push_back(value)

// ---- Flagged ----------------------------------------------------------------

void push_outputs(torch::nn::Linear &model, const std::vector<torch::Tensor> &batches) {
  std::vector<torch::Tensor> outputs;
  for (const auto &batch : batches)
    outputs.push_back(model(batch));
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'outputs' outlives the iteration and each time a tensor that carries autograd
    // CHECK-FIXES: outputs.push_back(model(batch).detach());
}

void push_losses(torch::nn::Linear &model, const torch::Tensor &x) {
  std::vector<torch::Tensor> losses;
  for (int step = 0; step < 100; ++step) {
    auto loss = model(x).sum();
    loss.backward();
    losses.push_back(loss);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'losses' outlives the iteration and each time a tensor that carries autograd
    // CHECK-FIXES: losses.push_back(loss.detach());
  }
}

void emplace_back(torch::nn::Linear &model, const torch::Tensor &x) {
  std::vector<torch::Tensor> history;
  for (int step = 0; step < 100; ++step)
    history.emplace_back(model(x).mean());
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'history' outlives the iteration and each time a tensor that carries autograd
    // CHECK-FIXES: history.emplace_back(model(x).mean().detach());
}

void deque_push_front(torch::nn::Linear &model, const torch::Tensor &x) {
  std::deque<torch::Tensor> recent;
  for (int step = 0; step < 100; ++step) {
    auto out = model(x);
    recent.push_front(out);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'recent' outlives the iteration and each time a tensor that carries autograd
    // CHECK-FIXES: recent.push_front(out.detach());
  }
}

void list_insert(torch::nn::Linear &model, const torch::Tensor &x) {
  std::list<torch::Tensor> all;
  int step = 0;
  while (step++ < 100) {
    auto out = model(x);
    all.insert(all.end(), out);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'all' outlives the iteration and each time a tensor that carries autograd
    // CHECK-FIXES: all.insert(all.end(), out.detach());
  }
}

void map_subscript(torch::nn::Linear &model, const torch::Tensor &x) {
  std::map<int, torch::Tensor> by_step;
  for (int step = 0; step < 100; ++step)
    by_step[step] = model(x);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'by_step' outlives the iteration and each time a tensor that carries autograd
    // CHECK-FIXES: by_step[step] = model(x).detach();
}

void map_emplace(torch::nn::Linear &model, const torch::Tensor &x) {
  std::map<std::string, torch::Tensor> named;
  for (int step = 0; step < 100; ++step) {
    auto out = model(x);
    named.emplace(std::to_string(step), out);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'named' outlives the iteration and each time a tensor that carries autograd
    // CHECK-FIXES: named.emplace(std::to_string(step), out.detach());
  }
}

void vector_element_assignment(torch::nn::Linear &model, const torch::Tensor &x) {
  std::vector<torch::Tensor> slots(10);
  for (int i = 0; i < 10; ++i)
    slots[i] = model(x);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'slots' outlives the iteration and each time a tensor that carries autograd
    // CHECK-FIXES: slots[i] = model(x).detach();
}

void tensor_buffer_copy(torch::nn::Linear &model, const torch::Tensor &x) {
  torch::Tensor buffer = torch::zeros({10, 1});
  for (int i = 0; i < 10; ++i)
    buffer[i].copy_(model(x).sum());
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'buffer' outlives the iteration and each time a tensor that carries autograd
    // CHECK-FIXES: buffer[i].copy_(model(x).sum().detach());
}

void tensor_buffer_index_put(torch::nn::Linear &model, const torch::Tensor &x) {
  torch::Tensor buffer = torch::zeros({10});
  for (int i = 0; i < 10; ++i) {
    auto loss = model(x).sum();
    buffer.index_put_({i}, loss);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'buffer' outlives the iteration and each time a tensor that carries autograd
    // CHECK-FIXES: buffer.index_put_({i}, loss.detach());
  }
}

struct Recorder {
  std::vector<torch::Tensor> outputs;
  torch::nn::Linear model{4, 1};
  void record(const torch::Tensor &x) {
    outputs.push_back(model(x));
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'outputs' outlives the call and each time a tensor that carries autograd
    // CHECK-FIXES: outputs.push_back(model(x).detach());
  }
};

std::vector<torch::Tensor> global_outputs;
void global_container(torch::nn::Linear &model, const torch::Tensor &x) {
  global_outputs.push_back(model->forward(x));
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'global_outputs' outlives the call and each time a tensor that carries autograd
  // CHECK-FIXES: global_outputs.push_back(model->forward(x).detach());
}

// A by-reference parameter is the caller's object: what a function that
// trains nothing leaves there is its result, and the caller decides.
void by_reference(std::vector<torch::Tensor> &sink, torch::nn::Linear &model,
                  const torch::Tensor &x) {
  sink.push_back(model(x));
}

// Unless a call site in view hands it an object that outlives the caller's
// iteration ...
void fill(std::vector<torch::Tensor> &sink, torch::nn::Linear &model,
          const torch::Tensor &x) {
  sink.push_back(model(x));
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'sink' outlives the call and each time a tensor that carries autograd
  // CHECK-MESSAGES: :[[@LINE-4]]:39: note: 'sink' is the caller's object, passed by reference
  // CHECK-MESSAGES: :[[@LINE+8]]:5: note: 'fill' is called here with an object that outlives the call, so what it stores there builds up
  // CHECK-FIXES: sink.push_back(model(x).detach());
}

void fills_across_steps(torch::nn::Linear &model,
                        const std::vector<torch::Tensor> &xs) {
  std::vector<torch::Tensor> all;
  for (const auto &x : xs)
    fill(all, model, x);
}

// ... and not when the caller clears it before every call.
void act(std::vector<torch::Tensor> &output, torch::nn::Linear &model,
         const torch::Tensor &x) {
  output.push_back(model(x));
}

void control_loop(torch::nn::Linear &model, const torch::Tensor &x) {
  std::vector<torch::Tensor> output;
  for (int step = 0; step < 100; ++step) {
    output.clear();
    act(output, model, x);
  }
}

// A function that trains keeps its losses in the caller's list: flagged.
void train_into(std::vector<torch::Tensor> &losses, torch::nn::Linear &model,
                torch::optim::SGD &optimizer, const torch::Tensor &x) {
  auto loss = model(x).sum();
  optimizer.zero_grad();
  loss.backward();
  optimizer.step();
  losses.push_back(loss);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'losses' outlives the call and each time a tensor that carries autograd history is stored in it; backward() has freed
  // CHECK-FIXES: losses.push_back(loss.detach());
}

// Cleared before every store in the iteration: it holds one step's output,
// as a variable declared in the loop would.
void cleared_each_step(torch::nn::Linear &model, const torch::Tensor &x) {
  std::vector<torch::Tensor> latest;
  for (int step = 0; step < 100; ++step) {
    latest.clear();
    latest.push_back(model(x));
    latest.push_back(model(x + 1));
  }
}

// Cleared only under a condition: every step until then is kept.
void cleared_sometimes(torch::nn::Linear &model, const torch::Tensor &x) {
  std::vector<torch::Tensor> recent;
  for (int step = 0; step < 100; ++step) {
    if (step % 10 == 0)
      recent.clear();
    recent.push_back(model(x));
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'recent' outlives the iteration and each time a tensor that carries autograd
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: 'recent' is cleared here, which bounds the growth
    // CHECK-FIXES: recent.push_back(model(x).detach());
  }
}

torch::Tensor predict(torch::nn::Linear &model, const torch::Tensor &x) {
  return torch::softmax(model(x), 1);
}

void through_a_helper(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs) {
  std::vector<torch::Tensor> probabilities;
  for (const auto &x : xs)
    probabilities.push_back(predict(model, x));
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'probabilities' outlives the iteration and each time a tensor that carries autograd
    // CHECK-FIXES: probabilities.push_back(predict(model, x).detach());
}

void in_a_macro(torch::nn::Linear &model, const torch::Tensor &x) {
  std::vector<torch::Tensor> outputs;
  for (int i = 0; i < 10; ++i) {
    auto y = model(x);
    KEEP(outputs, y);
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'outputs' outlives the iteration and each time a tensor that carries autograd
  }
}

// ---- Not flagged ------------------------------------------------------------

void detached(torch::nn::Linear &model, const torch::Tensor &x) {
  std::vector<torch::Tensor> outputs;
  for (int i = 0; i < 10; ++i) {
    outputs.push_back(model(x).detach());
    outputs.emplace_back(model(x).sum().detach());
  }
}

void scalars(torch::nn::Linear &model, const torch::Tensor &x) {
  std::vector<double> losses;
  for (int i = 0; i < 10; ++i)
    losses.push_back(model(x).sum().item<double>());
}

void predictions(torch::nn::Linear &model, const torch::Tensor &x) {
  std::vector<torch::Tensor> classes;
  for (int i = 0; i < 10; ++i)
    classes.push_back(model(x).argmax(1));
}

void under_a_guard(torch::nn::Linear &model, const torch::Tensor &x) {
  std::vector<torch::Tensor> outputs;
  torch::NoGradGuard no_grad;
  for (int i = 0; i < 10; ++i)
    outputs.push_back(model(x));
}

void block_scoped_guard(torch::nn::Linear &model, const torch::Tensor &x) {
  std::vector<torch::Tensor> outputs;
  for (int i = 0; i < 10; ++i) {
    torch::Tensor out;
    {
      c10::InferenceMode guard;
      out = model(x);
    }
    outputs.push_back(out);
  }
}

void container_in_the_loop(torch::nn::Linear &model, const torch::Tensor &x) {
  for (int i = 0; i < 10; ++i) {
    std::vector<torch::Tensor> parts;
    parts.push_back(model(x));
    torch::stack(parts).sum().backward();
  }
}

void reinforce_episode(torch::nn::Linear &policy, const torch::Tensor &state,
                       torch::optim::Adam &optimizer) {
  std::vector<torch::Tensor> log_probs;
  for (int episode = 0; episode < 10; ++episode) {
    for (int t = 0; t < 20; ++t)
      log_probs.push_back(torch::log_softmax(policy(state), 1).select(1, 0));
    auto loss = -torch::stack(log_probs).sum();
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
    log_probs.clear();
  }
}

struct Policy {
  torch::nn::Linear net{4, 2};
  std::vector<torch::Tensor> saved_log_probs;
  void select_action(const torch::Tensor &state) {
    saved_log_probs.push_back(torch::log_softmax(net(state), 1).select(1, 0));
  }
  void finish_episode(torch::optim::Adam &optimizer) {
    auto loss = -torch::stack(saved_log_probs).sum();
    loss.backward();
    optimizer.step();
    saved_log_probs.clear();
  }
};

// The same, with the loss summed over the list by a range-for.
struct RangePolicy {
  torch::nn::Linear net{4, 2};
  std::vector<torch::Tensor> saved_log_probs;
  void select_action(const torch::Tensor &state) {
    saved_log_probs.push_back(torch::log_softmax(net(state), 1).select(1, 0));
  }
  void finish_episode(torch::optim::Adam &optimizer) {
    torch::Tensor loss = torch::zeros({});
    for (const auto &log_prob : saved_log_probs)
      loss = loss - log_prob;
    loss.backward();
    optimizer.step();
    saved_log_probs.clear();
  }
};

void inputs_only(const std::vector<torch::Tensor> &batches) {
  std::vector<torch::Tensor> normalised;
  for (const auto &batch : batches)
    normalised.push_back((batch - batch.mean()) / batch.std());
}

void no_loop_local(torch::nn::Linear &model, const torch::Tensor &x) {
  std::vector<torch::Tensor> outputs;
  outputs.push_back(model(x));
}

void guarded_helper(std::vector<torch::Tensor> &sink, torch::nn::Linear &model,
                    const torch::Tensor &x) {
  sink.push_back(model(x));
}
void helper_called_under_guard(torch::nn::Linear &model, const torch::Tensor &x) {
  std::vector<torch::Tensor> sink;
  torch::NoGradGuard no_grad;
  for (int i = 0; i < 3; ++i)
    guarded_helper(sink, model, x);
}

void integer_labels_and_gradients(torch::nn::Linear &model, const torch::Tensor &x) {
  std::vector<torch::Tensor> labels, grads;
  for (int i = 0; i < 10; ++i) {
    labels.push_back(model(x).to(torch::kLong));
    for (const auto &p : model->parameters())
      grads.push_back(p.grad());
  }
}

void fresh_tensors(std::vector<torch::Tensor> &buffers) {
  for (int i = 0; i < 10; ++i)
    buffers.emplace_back(torch::zeros({4}));
}

void grad_mode_off(torch::nn::Linear &model, const torch::Tensor &x) {
  std::vector<torch::Tensor> outputs;
  torch::autograd::GradMode::set_enabled(false);
  for (int i = 0; i < 10; ++i)
    outputs.push_back(model(x));
  torch::autograd::GradMode::set_enabled(true);
}

void nolint(torch::nn::Linear &model, const torch::Tensor &x) {
  std::vector<torch::Tensor> outputs;
  for (int i = 0; i < 10; ++i)
    outputs.push_back(model(x)); // NOLINT(torch-graph-in-container)
}
