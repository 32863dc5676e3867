// RUN: %check_torch_tidy %s torch-missing-zero-grad %t
// As built against LibTorch 2.x, whose headers need C++20:
// RUN: %check_torch_tidy --std=c++20 %s torch-missing-zero-grad %t.cxx20

#include <torch/torch.h>
#include <memory>
#include <vector>

#define TRAIN_STEP(loss, opt) \
  do {                        \
    (loss).backward();        \
    (opt).step();             \
  } while (0)

struct Batch {
  torch::Tensor data, target;
};

void clear_all(torch::optim::Optimizer &optimizer); // defined elsewhere

// ---- Flagged ----------------------------------------------------------------

void never_zeroed(torch::nn::Linear &model, const std::vector<Batch> &batches) {
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.1));
  for (const auto &batch : batches) {
    auto output = model(batch.data);
    auto loss = torch::mse_loss(output, batch.target);
    loss.backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: this backward pass adds its gradients to those of every earlier iteration: nothing zeroes the gradients of 'optimizer' between two of its steps, so each step applies the sum of all past gradients [torch-missing-zero-grad]
    // CHECK-MESSAGES: :[[@LINE+2]]:5: note: 'optimizer' steps here with the gradients of every earlier backward pass still added in
    // CHECK-MESSAGES: :[[@LINE-7]]:21: note: 'optimizer' is declared here
    optimizer.step();
  }
  // CHECK-FIXES: for (const auto &batch : batches) {
  // CHECK-FIXES-NEXT: optimizer.zero_grad();
  // CHECK-FIXES-NEXT: auto output = model(batch.data);
}

// Zeroed once, before the loop: every later step still adds up.
void zeroed_before_the_loop(torch::nn::Linear &model, const std::vector<Batch> &batches) {
  torch::optim::Adam adam(model->parameters());
  adam.zero_grad();
  for (int epoch = 0; epoch < 10; ++epoch) {
    for (const auto &batch : batches) {
      auto x = batch.data * 2;
      torch::mse_loss(model(x), batch.target).backward();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: this backward pass adds its gradients to those of every earlier iteration: nothing zeroes the gradients of 'adam'
      // CHECK-MESSAGES: :[[@LINE+2]]:7: note: 'adam' steps here
      // CHECK-MESSAGES: :[[@LINE-8]]:22: note: 'adam' is declared here
      adam.step();
    }
  }
  // CHECK-FIXES: for (const auto &batch : batches) {
  // CHECK-FIXES-NEXT: adam.zero_grad();
  // CHECK-FIXES-NEXT: auto x = batch.data * 2;
}

// Two optimizers: the one zeroed is not flagged, the other is, and its
// zero_grad() goes where its own update starts.
void two_optimizers(torch::nn::Linear &generator, torch::nn::Linear &critic,
                    const std::vector<Batch> &batches) {
  torch::optim::Adam g_opt(generator->parameters());
  torch::optim::Adam d_opt(critic->parameters());
  for (const auto &batch : batches) {
    d_opt.zero_grad();
    auto fake = generator(batch.data);
    auto d_loss = critic(batch.target).mean() - critic(fake.detach()).mean();
    d_loss.backward();
    d_opt.step();
    auto g_loss = -critic(fake).mean();
    g_loss.backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: this backward pass adds its gradients to those of every earlier iteration: nothing zeroes the gradients of 'g_opt'
    // CHECK-MESSAGES: :[[@LINE+2]]:5: note: 'g_opt' steps here
    // CHECK-MESSAGES: :[[@LINE-12]]:22: note: 'g_opt' is declared here
    g_opt.step();
  }
  // CHECK-FIXES: d_opt.step();
  // CHECK-FIXES-NEXT: g_opt.zero_grad();
  // CHECK-FIXES-NEXT: auto g_loss = -critic(fake).mean();
}

// The other model's zero_grad() clears nothing this optimizer holds.
void another_model_zeroed(torch::nn::Linear &model, torch::nn::Linear &other,
                          const std::vector<Batch> &batches) {
  auto optimizer = std::make_unique<torch::optim::SGD>(
      model->parameters(), torch::optim::SGDOptions(0.01));
  for (size_t i = 0; i < batches.size(); ++i) {
    other->zero_grad();
    auto loss = model(batches[i].data).sum();
    loss.backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: this backward pass adds its gradients to those of every earlier iteration: nothing zeroes the gradients of 'optimizer'
    // CHECK-MESSAGES: :[[@LINE+2]]:5: note: 'optimizer' steps here
    // CHECK-MESSAGES: :[[@LINE-8]]:8: note: 'optimizer' is declared here
    optimizer->step();
  }
  // CHECK-FIXES: other->zero_grad();
  // CHECK-FIXES-NEXT: optimizer->zero_grad();
  // CHECK-FIXES-NEXT: auto loss = model(batches[i].data).sum();
}

// Zeroed on the first iteration only.
void zeroed_once(torch::nn::Linear &model, torch::optim::SGD &optimizer,
                 const std::vector<Batch> &batches) {
  for (size_t i = 0; i < batches.size(); ++i) {
    if (i == 0)
      optimizer.zero_grad();
    auto loss = model(batches[i].data).sum();
    loss.backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: this backward pass adds its gradients to those of every earlier iteration: nothing zeroes the gradients of 'optimizer'
    // CHECK-MESSAGES: :[[@LINE+2]]:5: note: 'optimizer' steps here
    // CHECK-MESSAGES: :[[@LINE-9]]:63: note: 'optimizer' is declared here
    optimizer.step();
  }
  // CHECK-FIXES: optimizer.zero_grad();
  // CHECK-FIXES-NEXT: optimizer.zero_grad();
  // CHECK-FIXES-NEXT: auto loss = model(batches[i].data).sum();
}

// A step every few iterations with nothing zeroed at all: the gradients of
// every window add up.
void window_never_zeroed(torch::nn::Linear &model, torch::optim::SGD &optimizer,
                         const std::vector<Batch> &batches) {
  for (size_t i = 0; i < batches.size(); ++i) {
    auto loss = model(batches[i].data).sum() / 4;
    loss.backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: this backward pass adds its gradients to those of every earlier iteration: nothing zeroes the gradients of 'optimizer'
    // CHECK-MESSAGES: :[[@LINE+3]]:7: note: 'optimizer' steps here
    // CHECK-MESSAGES: :[[@LINE-7]]:71: note: 'optimizer' is declared here
    if ((i + 1) % 4 == 0)
      optimizer.step();
  }
  // CHECK-FIXES: for (size_t i = 0; i < batches.size(); ++i) {
  // CHECK-FIXES-NEXT: optimizer.zero_grad();
  // CHECK-FIXES-NEXT: auto loss = model(batches[i].data).sum() / 4;
}

// A member optimizer of a trainer class.
class Trainer {
public:
  explicit Trainer(torch::nn::Linear net)
      : net_(net), optimizer_(net_->parameters(), torch::optim::AdamOptions(1e-3)) {}
  void fit(const std::vector<Batch> &batches) {
    for (const auto &batch : batches) {
      auto loss = torch::mse_loss(net_(batch.data), batch.target);
      loss.backward();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: this backward pass adds its gradients to those of every earlier iteration: nothing zeroes the gradients of 'optimizer_'
      // CHECK-MESSAGES: :[[@LINE+2]]:7: note: 'optimizer_' steps here
      // CHECK-MESSAGES: :[[@LINE+10]]:22: note: 'optimizer_' is declared here
      optimizer_.step();
    }
    // CHECK-FIXES: for (const auto &batch : batches) {
    // CHECK-FIXES-NEXT: optimizer_.zero_grad();
    // CHECK-FIXES-NEXT: auto loss = torch::mse_loss(net_(batch.data), batch.target);
  }

private:
  torch::nn::Linear net_;
  torch::optim::Adam optimizer_;
};

// Inside a macro: reported, not fixed.
void in_a_macro(torch::nn::Linear &model, torch::optim::SGD &optimizer,
                const std::vector<Batch> &batches) {
  for (const auto &batch : batches) {
    auto loss = model(batch.data).sum();
    TRAIN_STEP(loss, optimizer);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: this backward pass adds its gradients to those of every earlier iteration: nothing zeroes the gradients of
    // CHECK-MESSAGES: :[[@LINE-2]]:5: note: 'optimizer' steps here
    // CHECK-MESSAGES: :[[@LINE-7]]:62: note: 'optimizer' is declared here
  }
}

// ---- Not flagged ------------------------------------------------------------

void zeroed_each_iteration(torch::nn::Linear &model, torch::optim::SGD &optimizer,
                           const std::vector<Batch> &batches) {
  for (const auto &batch : batches) {
    optimizer.zero_grad();
    torch::mse_loss(model(batch.data), batch.target).backward();
    optimizer.step();
  }
  // Zeroed after the step.
  for (const auto &batch : batches) {
    torch::mse_loss(model(batch.data), batch.target).backward();
    optimizer.step();
    optimizer.zero_grad();
  }
  // Through the model whose parameters it holds.
  for (const auto &batch : batches) {
    model->zero_grad();
    torch::mse_loss(model(batch.data), batch.target).backward();
    optimizer.step();
  }
}

void zeroed_by_hand(torch::nn::Linear &model, const std::vector<Batch> &batches) {
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.1));
  for (const auto &batch : batches) {
    for (auto &p : model->parameters())
      if (p.grad().defined())
        p.mutable_grad().zero_();
    torch::mse_loss(model(batch.data), batch.target).backward();
    optimizer.step();
  }
  for (const auto &batch : batches) {
    torch::mse_loss(model(batch.data), batch.target).backward();
    optimizer.step();
    for (auto &p : optimizer.parameters())
      p.mutable_grad().reset();
  }
  for (const auto &batch : batches) {
    torch::mse_loss(model(batch.data), batch.target).backward();
    optimizer.step();
    for (auto &p : model->parameters())
      p.mutable_grad() = torch::Tensor();
  }
}

// Gradient accumulation on purpose: zeroed together with the step.
void accumulation_window(torch::nn::Linear &model, torch::optim::SGD &optimizer,
                         const std::vector<Batch> &batches) {
  for (size_t i = 0; i < batches.size(); ++i) {
    auto loss = model(batches[i].data).sum() / 4;
    loss.backward();
    if ((i + 1) % 4 == 0) {
      optimizer.step();
      optimizer.zero_grad();
    }
  }
  // Zeroed when a window starts, stepped when it ends.
  for (size_t i = 0; i < batches.size(); ++i) {
    if (i % 4 == 0)
      optimizer.zero_grad();
    auto loss = model(batches[i].data).sum() / 4;
    loss.backward();
    if ((i + 1) % 4 == 0)
      optimizer.step();
  }
}

// No step: the gradients are read, not applied.
std::vector<torch::Tensor> saliency(torch::nn::Linear &model,
                                    const std::vector<Batch> &batches) {
  std::vector<torch::Tensor> maps;
  for (const auto &batch : batches) {
    auto x = batch.data.clone().requires_grad_(true);
    model(x).sum().backward();
    maps.push_back(x.grad().detach());
  }
  return maps;
}

// Zeroed by a function of the unit, or by one out of view that is handed
// the optimizer.
void reset_gradients(torch::optim::Optimizer &optimizer) { optimizer.zero_grad(); }
void through_helpers(torch::nn::Linear &model, torch::optim::SGD &optimizer,
                     const std::vector<Batch> &batches) {
  for (const auto &batch : batches) {
    reset_gradients(optimizer);
    model(batch.data).sum().backward();
    optimizer.step();
  }
  for (const auto &batch : batches) {
    clear_all(optimizer);
    model(batch.data).sum().backward();
    optimizer.step();
  }
  auto zero = [&] { optimizer.zero_grad(); };
  for (const auto &batch : batches) {
    zero();
    model(batch.data).sum().backward();
    optimizer.step();
  }
}

// Every optimizer of a list zeroed; a closure that the optimizer runs.
void lists_and_closures(torch::nn::Linear &model,
                        std::vector<std::unique_ptr<torch::optim::Optimizer>> &optimizers,
                        torch::optim::SGD &optimizer, const std::vector<Batch> &batches) {
  for (const auto &batch : batches) {
    for (auto &o : optimizers)
      o->zero_grad();
    model(batch.data).sum().backward();
    for (auto &o : optimizers)
      o->step();
  }
  for (const auto &batch : batches) {
    optimizer.step([&] {
      optimizer.zero_grad();
      auto loss = model(batch.data).sum();
      loss.backward();
      return loss;
    });
  }
}

// Both optimizers of a GAN zeroed.
void both_zeroed(torch::nn::Linear &generator, torch::nn::Linear &critic,
                 torch::optim::Adam &g_opt, torch::optim::Adam &d_opt,
                 const std::vector<Batch> &batches) {
  for (const auto &batch : batches) {
    d_opt.zero_grad();
    auto fake = generator(batch.data);
    (critic(batch.target).mean() - critic(fake.detach()).mean()).backward();
    d_opt.step();
    g_opt.zero_grad();
    (-critic(fake).mean()).backward();
    g_opt.step();
  }
}

// Adam for the first steps, then LBFGS, both built on the model's
// parameters: the closure zeroes LBFGS's, which are Adam's too. (Zeroing
// the critic's optimizer clears nothing of the generator's: two_optimizers.)
void adam_then_lbfgs(torch::nn::Linear &model, const torch::Tensor &x,
                     int steps) {
  torch::optim::Adam adam(model->parameters(), torch::optim::AdamOptions(1e-3));
  torch::optim::LBFGS lbfgs(model->parameters(), torch::optim::LBFGSOptions(1));
  torch::Tensor loss;
  for (int i = 0; i < steps; ++i) {
    auto evaluate = [&]() {
      lbfgs.zero_grad();
      loss = model(x).pow(2).mean();
      loss.backward();
      return loss;
    };
    if (i < steps / 2)
      adam.step(evaluate);
    else
      lbfgs.step(evaluate);
  }
}

// A closure that the step evaluates runs the backward pass: unless the
// closure or the loop clears, each evaluation adds to every earlier one.
void closure_never_zeroed(torch::nn::Linear &model, torch::optim::Adam &adam,
                          const std::vector<Batch> &batches) {
  torch::Tensor loss_sum;
  for (const auto &batch : batches) {
    auto closure = [&]() {
      loss_sum = model(batch.data).sum();
      loss_sum.backward();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: this backward pass adds its gradients to those of every earlier iteration: nothing zeroes the gradients of 'adam' between two of its steps, so each step applies the sum of all past gradients [torch-missing-zero-grad]
      return loss_sum;
    };
    // CHECK-FIXES: auto closure = [&]() {
    // CHECK-FIXES-NEXT: adam.zero_grad();
    // CHECK-FIXES-NEXT: loss_sum = model(batch.data).sum();
    adam.step(closure);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: note: 'adam' steps here with the gradients of every earlier backward pass still added in
  }
}

void closure_in_the_call(torch::nn::Linear &model, torch::optim::SGD &opt,
                         const std::vector<Batch> &batches) {
  for (const auto &batch : batches) {
    opt.step([&model, &batch]() {
      auto loss = model(batch.data).sum();
      loss.backward();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: this backward pass adds its gradients to those of every earlier iteration: nothing zeroes the gradients of 'opt'
      return loss;
    });
    // CHECK-MESSAGES: :[[@LINE-6]]:5: note: 'opt' steps here
  }
}

void closure_zeroed_by_the_loop(torch::nn::Linear &model, torch::optim::SGD &opt,
                                const std::vector<Batch> &batches) {
  for (const auto &batch : batches) {
    opt.zero_grad();
    auto closure = [&]() {
      auto loss = model(batch.data).sum();
      loss.backward();
      return loss;
    };
    opt.step(closure);
  }
}

torch::Tensor evaluate_loss(torch::nn::Linear &model, const Batch &batch);

void closure_without_backward(torch::nn::Linear &model, torch::optim::SGD &opt,
                              const std::vector<Batch> &batches) {
  for (const auto &batch : batches)
    opt.step([&]() { return evaluate_loss(model, batch); });
}

// A solver templated on its network, the optimizer built from the network's
// parameters: the network's zero_grad() clears what the step applies. In
// the pattern, `this->net->zero_grad()` calls a function the template's
// argument decides; the unit's instantiation is judged with it known.
struct SmallNetImpl : torch::nn::Module {
  torch::nn::Linear fc{nullptr};
  torch::Tensor forward(const torch::Tensor &x) { return fc(x); }
};
template <class NetT> struct Solver {
  std::shared_ptr<NetT> net;
  explicit Solver(std::shared_ptr<NetT> n) : net(std::move(n)) {}
};
template <class NetT> struct FineSolver : Solver<NetT> {
  torch::optim::SGD fine_opt_;
  explicit FineSolver(std::shared_ptr<NetT> n)
      : Solver<NetT>(std::move(n)),
        fine_opt_(this->net->parameters(), torch::optim::SGDOptions(0.1)) {}
  double run(const torch::Tensor &x) {
    torch::Tensor loss;
    for (int k = 0; k < 10; ++k) {
      loss = this->net->forward(x).sum();
      this->net->zero_grad();
      loss.backward();
      fine_opt_.step();
    }
    return loss.item<double>();
  }
};
double solve(std::shared_ptr<SmallNetImpl> net, const torch::Tensor &x) {
  FineSolver<SmallNetImpl> solver(net);
  return solver.run(x);
}
// The same, never instantiated: the pattern alone.
template <class NetT> struct PatternSolver : Solver<NetT> {
  torch::optim::SGD opt_;
  explicit PatternSolver(std::shared_ptr<NetT> n)
      : Solver<NetT>(std::move(n)),
        opt_(this->net->parameters(), torch::optim::SGDOptions(0.1)) {}
  void run(const torch::Tensor &x, torch::Tensor &loss) {
    for (int k = 0; k < 10; ++k) {
      loss = x.pow(2).sum();
      this->net->zero_grad();
      loss.backward();
      opt_.step();
    }
  }
};
// The pattern alone again, clearing a parameter's gradient in place.
template <class NetT> struct ParameterSolver : Solver<NetT> {
  torch::optim::SGD opt_;
  explicit ParameterSolver(std::shared_ptr<NetT> n)
      : Solver<NetT>(std::move(n)),
        opt_(this->net->parameters(), torch::optim::SGDOptions(0.1)) {}
  void run(const torch::Tensor &x, torch::Tensor &loss) {
    for (int k = 0; k < 10; ++k) {
      loss = x.pow(2).sum();
      this->net->weight.mutable_grad().zero_();
      loss.backward();
      opt_.step();
    }
  }
};
// Instantiated, and nothing zeroes: found in the instantiation.
template <class NetT> struct ForgetfulSolver : Solver<NetT> {
  torch::optim::SGD opt_;
  explicit ForgetfulSolver(std::shared_ptr<NetT> n)
      : Solver<NetT>(std::move(n)),
        opt_(this->net->parameters(), torch::optim::SGDOptions(0.1)) {}
  void run(const torch::Tensor &x) {
    for (int k = 0; k < 10; ++k) {
      torch::Tensor loss = this->net->forward(x).sum();
      loss.backward();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: this backward pass adds its gradients to those of every earlier iteration: nothing zeroes the gradients of 'opt_'
      opt_.step();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: note: 'opt_' steps here
    }
  }
};
void solve_forgetfully(std::shared_ptr<SmallNetImpl> net, const torch::Tensor &x) {
  ForgetfulSolver<SmallNetImpl> solver(net);
  solver.run(x);
}
