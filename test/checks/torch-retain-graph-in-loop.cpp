// RUN: %check_torch_tidy %s torch-retain-graph-in-loop %t
// As built against LibTorch 2.x, whose headers need C++20:
// RUN: %check_torch_tidy --std=c++20 %s torch-retain-graph-in-loop %t.cxx20

#include <torch/torch.h>
#include <vector>

#define BACKWARD_RETAINING(loss) (loss).backward({}, true)

void plain_true(torch::nn::Linear &model, const torch::Tensor &x) {
  for (int step = 0; step < 100; ++step) {
    auto loss = model(x).sum();
    loss.backward({}, true);
    // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: retain_graph=true in a loop keeps the autograd graph and its saved activations alive after backward(), so memory grows every iteration that anything (a running total, a hidden state) links the new graph to the old one [torch-retain-graph-in-loop]
    // CHECK-MESSAGES: :[[@LINE-4]]:3: note: this loop runs the backward pass every iteration
    // CHECK-FIXES: loss.backward({});
  }
}

void commented_slot(torch::nn::Linear &model, const torch::Tensor &x) {
  int step = 0;
  while (step++ < 100) {
    auto loss = model(x).sum();
    loss.backward(torch::Tensor(), /*retain_graph=*/true);
    // CHECK-MESSAGES: :[[@LINE-1]]:53: warning: retain_graph=true in a loop
    // CHECK-MESSAGES: :[[@LINE-4]]:3: note: this loop runs the backward pass
    // CHECK-FIXES: loss.backward(torch::Tensor());
  }
}

void optional_spelling(torch::nn::Linear &model, const torch::Tensor &x) {
  int step = 0;
  do {
    auto loss = model(x).sum();
    loss.backward({}, c10::optional<bool>(true));
    // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: retain_graph=true in a loop
    // CHECK-MESSAGES: :[[@LINE-4]]:3: note: this loop runs
    // CHECK-FIXES: loss.backward({});
  } while (++step < 10);
}

// LibTorch 2.x declares retain_graph as std::optional<bool>; users write it so.
void std_optional_spelling(torch::nn::Linear &model, const torch::Tensor &x) {
  for (int step = 0; step < 10; ++step) {
    auto loss = model(x).sum();
    loss.backward({}, std::optional<bool>(true));
    // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: retain_graph=true in a loop
    // CHECK-MESSAGES: :[[@LINE-4]]:3: note: this loop runs
    // CHECK-FIXES: loss.backward({});
  }
  for (int step = 0; step < 10; ++step) {
    auto loss = model(x).sum();
    loss.backward(torch::Tensor(), std::make_optional(true), false);
    // CHECK-MESSAGES: :[[@LINE-1]]:36: warning: retain_graph=true in a loop
    // CHECK-MESSAGES: :[[@LINE-4]]:3: note: this loop runs
    // CHECK-FIXES: loss.backward(torch::Tensor(), false, false);
  }
  for (int step = 0; step < 10; ++step) {
    auto loss = model(x).sum();
    auto grads = torch::autograd::grad({loss}, {x}, {}, std::optional<bool>{true});
    // CHECK-MESSAGES: :[[@LINE-1]]:57: warning: retain_graph=true in a loop
    // CHECK-MESSAGES: :[[@LINE-4]]:3: note: this loop runs
    // CHECK-FIXES: auto grads = torch::autograd::grad({loss}, {x}, {});
  }
}

void range_for(torch::nn::Linear &model, const std::vector<torch::Tensor> &batches) {
  for (const auto &batch : batches) {
    auto loss = model(batch).mean();
    torch::autograd::backward({loss}, {}, true);
    // CHECK-MESSAGES: :[[@LINE-1]]:43: warning: retain_graph=true in a loop
    // CHECK-MESSAGES: :[[@LINE-4]]:3: note: this loop runs
    // CHECK-FIXES: torch::autograd::backward({loss}, {});
  }
}

void create_graph_follows(torch::nn::Linear &model, const torch::Tensor &x) {
  for (int i = 0; i < 10; ++i) {
    auto loss = model(x).sum();
    loss.backward({}, true, false);
    // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: retain_graph=true in a loop
    // CHECK-MESSAGES: :[[@LINE-4]]:3: note: this loop runs
    // CHECK-FIXES: loss.backward({}, false, false);
  }
}

void mislabelled_slot(torch::nn::Linear &model, const torch::Tensor &x) {
  for (int i = 0; i < 10; ++i) {
    auto loss = model(x).sum();
    // The comment names the wrong slot: the second argument is retain_graph.
    loss.backward({}, /*create_graph=*/true);
    // CHECK-MESSAGES: :[[@LINE-1]]:40: warning: retain_graph=true in a loop
    // CHECK-MESSAGES: :[[@LINE-5]]:3: note: this loop runs
    // CHECK-FIXES: loss.backward({});
  }
}

void autograd_grad(torch::nn::Linear &model, torch::Tensor x) {
  for (int i = 0; i < 10; ++i) {
    auto y = model(x).sum();
    auto g = torch::autograd::grad({y}, {x}, {}, true);
    // CHECK-MESSAGES: :[[@LINE-1]]:50: warning: retain_graph=true in a loop keeps the autograd graph and its saved activations alive after autograd::grad(), so memory
    // CHECK-MESSAGES: :[[@LINE-4]]:3: note: this loop runs the autograd::grad() call every iteration
    // CHECK-FIXES: auto g = torch::autograd::grad({y}, {x}, {});
  }
}

// With create_graph=true, autograd::grad keeps the graph for the gradients
// it returns whatever retain_graph says (it defaults to create_graph): the
// graph lives as long as they do, and false would break a backward pass
// through them. Not reported, with or without a later backward.
void autograd_grad_with_create_graph(torch::nn::Linear &model, torch::Tensor x) {
  for (int i = 0; i < 10; ++i) {
    auto y = model(x).sum();
    auto g = torch::autograd::grad({y}, {x}, {}, /*retain_graph=*/true,
                                   /*create_graph=*/true);
  }
}

void autograd_grad_creating_graph_constant(torch::nn::Linear &model, torch::Tensor x) {
  const bool keep = true;
  for (int i = 0; i < 10; ++i) {
    auto y = model(x).sum();
    auto g = torch::autograd::grad({y}, {x}, {}, keep, keep)[0];
    double norm = g.norm().item<double>();
  }
}

// backward() with create_graph keeps the graph in the parameters' .grad:
// still reported.
void backward_with_create_graph(torch::nn::Linear &model, const torch::Tensor &x) {
  for (int i = 0; i < 10; ++i) {
    auto loss = model(x).sum();
    loss.backward({}, true, true);
    // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: retain_graph=true in a loop
    // CHECK-MESSAGES: :[[@LINE-4]]:3: note: this loop runs
    // CHECK-FIXES: loss.backward({}, false, true);
  }
}

void constant_variable(torch::nn::Linear &model, const torch::Tensor &x) {
  const bool keep = true;
  for (int i = 0; i < 10; ++i) {
    model(x).sum().backward({}, keep);
    // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: retain_graph=true in a loop
    // CHECK-MESSAGES: :[[@LINE-3]]:3: note: this loop runs
    // CHECK-FIXES: model(x).sum().backward({});
  }
}

void accumulating_hidden_state(torch::nn::GRUCell &cell,
                               const std::vector<torch::Tensor> &inputs) {
  torch::Tensor h = torch::zeros({1, 8});
  for (const auto &input : inputs) {
    h = cell(input, h);
    h.sum().backward({}, true);
    // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: retain_graph=true in a loop
    // CHECK-MESSAGES: :[[@LINE-4]]:3: note: this loop runs
    // CHECK-FIXES: h.sum().backward({});
  }
}

void lambda_called_in_the_loop(torch::nn::Linear &model, const torch::Tensor &x) {
  for (int i = 0; i < 10; ++i) {
    auto step = [&] {
      model(x).sum().backward({}, true);
      // CHECK-MESSAGES: :[[@LINE-1]]:35: warning: retain_graph=true in a loop
    // CHECK-MESSAGES: :[[@LINE-4]]:3: note: this loop runs
      // CHECK-FIXES: model(x).sum().backward({});
    };
    step();
  }
}

void nested_loops(torch::nn::Linear &model, const torch::Tensor &x) {
  for (int epoch = 0; epoch < 3; ++epoch) {
    for (int i = 0; i < 10; ++i) {
      auto loss = model(x).sum();
      loss.backward({}, true);
      // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: retain_graph=true in a loop
      // CHECK-MESSAGES: :[[@LINE-4]]:5: note: this loop runs
      // CHECK-FIXES: loss.backward({});
    }
    // The later backward is outside the inner loop: not the same iteration.
    model(x).sum().backward();
  }
}

void in_a_macro(torch::nn::Linear &model, const torch::Tensor &x) {
  for (int i = 0; i < 10; ++i) {
    auto loss = model(x).sum();
    BACKWARD_RETAINING(loss);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: retain_graph=true in a loop
    // CHECK-MESSAGES: :[[@LINE-4]]:3: note: this loop runs
    // CHECK-FIXES: BACKWARD_RETAINING(loss);
  }
}

// ---- Not flagged ----------------------------------------------------------

void outside_a_loop(torch::nn::Linear &model, const torch::Tensor &x) {
  auto loss = model(x).sum();
  loss.backward({}, true);
  loss.backward();
}

void false_or_nullopt(torch::nn::Linear &model, const torch::Tensor &x) {
  for (int i = 0; i < 10; ++i) {
    auto loss = model(x).sum();
    loss.backward({}, false);
    loss.backward({}, c10::nullopt);
    loss.backward({}, c10::optional<bool>());
    loss.backward({}, std::nullopt);
    loss.backward({}, std::optional<bool>(false));
    loss.backward({}, std::optional<bool>());
    loss.backward();
    torch::autograd::backward({loss}, {}, false);
    torch::autograd::backward({loss});
    auto g = torch::autograd::grad({loss}, {x});
  }
}

void mislabelled_false(torch::nn::Linear &model, const torch::Tensor &x) {
  for (int i = 0; i < 10; ++i)
    model(x).sum().backward({}, /*retain_graph=*/false, /*create_graph=*/true);
}

void unknown_value(torch::nn::Linear &model, const torch::Tensor &x, bool retain) {
  for (int i = 0; i < 10; ++i)
    model(x).sum().backward({}, retain);
}

void two_losses_one_forward(torch::nn::Linear &model, const torch::Tensor &x,
                            const torch::Tensor &y) {
  for (int i = 0; i < 10; ++i) {
    auto out = model(x);
    auto loss1 = torch::mse_loss(out, y);
    auto loss2 = out.abs().mean();
    loss1.backward({}, true);
    loss2.backward();
  }
}

void gan_step(torch::nn::Linear &generator, torch::nn::Linear &discriminator,
              const torch::Tensor &noise) {
  for (int i = 0; i < 10; ++i) {
    auto fake = generator(noise);
    auto d_loss = discriminator(fake).mean();
    d_loss.backward({}, true);
    auto g_loss = -discriminator(fake).mean();
    g_loss.backward();
  }
}

void gradient_penalty(torch::nn::Linear &model, torch::Tensor x) {
  for (int i = 0; i < 10; ++i) {
    auto out = model(x).sum();
    auto grads = torch::autograd::grad({out}, {x}, {}, true, true);
    auto penalty = grads[0].pow(2).sum();
    torch::autograd::backward({out + penalty});
  }
}

void lambda_defined_but_not_called(torch::nn::Linear &model, const torch::Tensor &x,
                                   std::vector<std::function<void()>> &later) {
  for (int i = 0; i < 10; ++i) {
    auto step = [&] { model(x).sum().backward({}, true); };
    later.push_back(step);
  }
}

void suppressed(torch::nn::Linear &model, const torch::Tensor &x) {
  for (int i = 0; i < 10; ++i) {
    model(x).sum().backward({}, true); // NOLINT(torch-retain-graph-in-loop)
  }
}

// A template the unit instantiates is judged in its instantiations, where
// `loss.backward()` on a value of a dependent type is known for a backward
// pass that frees what autograd::grad retained.
template <typename Batches>
void input_gradients_then_step(torch::nn::Linear &model, Batches &batches,
                               torch::optim::SGD &opt) {
  for (auto &batch : batches) {
    opt.zero_grad();
    auto output = model(batch);
    auto loss = output.sum();
    auto grads = torch::autograd::grad({output}, {batch}, {}, true);
    loss.backward();
    opt.step();
  }
}

template <typename Batches>
void input_gradients_only(torch::nn::Linear &model, Batches &batches) {
  for (auto &batch : batches) {
    auto output = model(batch);
    auto grads = torch::autograd::grad({output}, {batch}, {}, true);
    // CHECK-MESSAGES: :[[@LINE-1]]:63: warning: retain_graph=true in a loop keeps the autograd graph
    // CHECK-MESSAGES: :[[@LINE-4]]:3: note: this loop runs the autograd::grad() call every iteration
    // CHECK-FIXES: auto grads = torch::autograd::grad({output}, {batch}, {});
  }
}

void instantiates(torch::nn::Linear &model, std::vector<torch::Tensor> &batches,
                  torch::optim::SGD &opt) {
  input_gradients_then_step(model, batches, opt);
  input_gradients_only(model, batches);
}
