// RUN: %check_torch_tidy %s torch-unscaled-grad-accumulation %t
// As built against LibTorch 2.x, whose headers need C++20:
// RUN: %check_torch_tidy --std=c++20 %s torch-unscaled-grad-accumulation %t.cxx20

#include <torch/torch.h>
#include <cstddef>
#include <memory>
#include <vector>

#define BACKWARD(loss) (loss).backward()

struct Batch {
  torch::Tensor data, target;
};

struct Config {
  int accumulation_steps = 4;
};

torch::Tensor compute_loss(torch::nn::Linear &model, const Batch &batch,
                           int steps); // defined elsewhere

// ---- Flagged ----------------------------------------------------------------

void constant_window(torch::nn::Linear &model, torch::optim::SGD &optimizer,
                     const std::vector<Batch> &batches) {
  for (size_t i = 0; i < batches.size(); ++i) {
    auto loss = torch::mse_loss(model(batches[i].data), batches[i].target);
    loss.backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the loss is backpropagated every iteration while 'optimizer' steps only once every 4 iterations, and it is not divided by 4, so each update is 4 times larger than intended [torch-unscaled-grad-accumulation]
    // CHECK-MESSAGES: :[[@LINE+4]]:7: note: 'optimizer' steps here, once every 4 iterations
    // CHECK-MESSAGES: :[[@LINE-5]]:3: note: this loop runs the backward pass every iteration
    // CHECK-FIXES: (loss / 4).backward();
    if ((i + 1) % 4 == 0) {
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}

void variable_window(torch::nn::Linear &model, torch::optim::Adam &optimizer,
                     const std::vector<Batch> &batches, int accumulation) {
  int step = 0;
  for (const auto &batch : batches) {
    auto output = model(batch.data);
    torch::mse_loss(output, batch.target).backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the loss is backpropagated every iteration while 'optimizer' steps only once every accumulation iterations, and it is not divided by accumulation, so each update is accumulation times larger than intended [torch-unscaled-grad-accumulation]
    // CHECK-MESSAGES: :[[@LINE+4]]:7: note: 'optimizer' steps here, once every accumulation iterations
    // CHECK-MESSAGES: :[[@LINE-5]]:3: note: this loop runs the backward pass every iteration
    // CHECK-FIXES: (torch::mse_loss(output, batch.target) / accumulation).backward();
    if (++step % accumulation == 0) {
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}

// A counter that counts to N and starts again; N a member of a
// configuration, and of a type c10::Scalar has no constructor for.
void counter_window(torch::nn::Linear &model, torch::optim::SGD &optimizer,
                    const std::vector<Batch> &batches, const Config &cfg,
                    std::size_t window) {
  int micro = 0;
  for (const auto &batch : batches) {
    auto loss = model(batch.data).pow(2).mean();
    loss.backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the loss is backpropagated every iteration while 'optimizer' steps only once every cfg.accumulation_steps iterations
    // CHECK-MESSAGES: :[[@LINE+4]]:7: note: 'optimizer' steps here
    // CHECK-MESSAGES: :[[@LINE-5]]:3: note: this loop runs
    // CHECK-FIXES: (loss / cfg.accumulation_steps).backward();
    if (++micro == cfg.accumulation_steps) {
      optimizer.step();
      optimizer.zero_grad();
      micro = 0;
    }
  }
  for (std::size_t i = 0; i < batches.size(); ++i) {
    auto loss = model(batches[i].data).pow(2).mean() / 2;
    loss.backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the loss is backpropagated every iteration while 'optimizer' steps only once every window iterations
    // CHECK-MESSAGES: :[[@LINE+4]]:7: note: 'optimizer' steps here
    // CHECK-MESSAGES: :[[@LINE-5]]:3: note: this loop runs
    // CHECK-FIXES: (loss / static_cast<double>(window)).backward();
    if ((i + 1) % window == 0) {
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}

// Inside a macro: reported, not fixed.
void in_a_macro(torch::nn::Linear &model, torch::optim::SGD &optimizer,
                const std::vector<Batch> &batches) {
  for (size_t i = 0; i < batches.size(); ++i) {
    auto loss = model(batches[i].data).sum();
    BACKWARD(loss);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the loss is backpropagated every iteration while 'optimizer' steps only once every 8 iterations
    // CHECK-MESSAGES: :[[@LINE+3]]:7: note: 'optimizer' steps here
    // CHECK-MESSAGES: :[[@LINE-5]]:3: note: this loop runs
    if ((i + 1) % 8 == 0)
      optimizer.step();
  }
}

// torch::autograd::backward: reported, not fixed.
void free_backward(torch::nn::Linear &model, torch::optim::SGD &optimizer,
                   const std::vector<Batch> &batches) {
  for (size_t i = 0; i < batches.size(); ++i) {
    auto loss = model(batches[i].data).sum();
    torch::autograd::backward({loss});
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the loss is backpropagated every iteration while 'optimizer' steps only once every 2 iterations
    // CHECK-MESSAGES: :[[@LINE+3]]:7: note: 'optimizer' steps here
    // CHECK-MESSAGES: :[[@LINE-5]]:3: note: this loop runs
    if (i % 2 == 0)
      optimizer.step();
  }
}

// The learning rate divided, but not by the window's N; and a window N
// that a method changes after the constructor divided the rate by it.
void rate_divided_by_another(torch::nn::Linear &model, const std::vector<Batch> &batches,
                             double lr, int accumulation, int workers) {
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(lr / workers));
  for (size_t i = 0; i < batches.size(); ++i) {
    model(batches[i].data).sum().backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the loss is backpropagated every iteration while 'optimizer' steps only once every accumulation iterations
    // CHECK-MESSAGES: :[[@LINE+3]]:7: note: 'optimizer' steps here
    // CHECK-MESSAGES: :[[@LINE-4]]:3: note: this loop runs
    if ((i + 1) % accumulation == 0) {
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}

class RetunedTrainer {
public:
  RetunedTrainer(torch::nn::Linear model, double lr, int accumulation)
      : model_(model), accumulation_(accumulation) {
    lr_ = lr / accumulation;
  }
  void set_accumulation(int n) { accumulation_ = n; }
  void train(const std::vector<Batch> &batches) {
    torch::optim::SGD optimizer(model_->parameters(), lr_);
    for (size_t i = 0; i < batches.size(); ++i) {
      model_(batches[i].data).sum().backward();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: the loss is backpropagated every iteration while 'optimizer' steps only once every accumulation_ iterations
      // CHECK-MESSAGES: :[[@LINE+3]]:9: note: 'optimizer' steps here
      // CHECK-MESSAGES: :[[@LINE-4]]:5: note: this loop runs
      if ((i + 1) % accumulation_ == 0) {
        optimizer.step();
        optimizer.zero_grad();
      }
    }
  }

private:
  torch::nn::Linear model_;
  double lr_;
  int accumulation_;
};

// ---- Not flagged ------------------------------------------------------------

void scaled(torch::nn::Linear &model, torch::optim::SGD &optimizer,
            const std::vector<Batch> &batches, int accumulation, const Config &cfg) {
  for (size_t i = 0; i < batches.size(); ++i) {
    auto loss = model(batches[i].data).sum() / accumulation;
    loss.backward();
    if ((i + 1) % accumulation == 0) {
      optimizer.step();
      optimizer.zero_grad();
    }
  }
  // By a value equal to N, in place.
  const int steps = cfg.accumulation_steps;
  for (size_t i = 0; i < batches.size(); ++i) {
    auto loss = model(batches[i].data).sum();
    loss /= steps;
    loss.backward();
    if ((i + 1) % cfg.accumulation_steps == 0) {
      optimizer.step();
      optimizer.zero_grad();
    }
  }
  for (size_t i = 0; i < batches.size(); ++i) {
    (model(batches[i].data).sum() / 4.0).backward();
    if ((i + 1) % 4 == 0) {
      optimizer.step();
      optimizer.zero_grad();
    }
  }
  // By a function of the user's that is handed N.
  for (size_t i = 0; i < batches.size(); ++i) {
    compute_loss(model, batches[i], accumulation).backward();
    if ((i + 1) % accumulation == 0) {
      optimizer.step();
      optimizer.zero_grad();
    }
  }
  // The gradients divided before the step.
  for (size_t i = 0; i < batches.size(); ++i) {
    model(batches[i].data).sum().backward();
    if ((i + 1) % accumulation == 0) {
      for (auto &p : model->parameters())
        p.mutable_grad().div_(accumulation);
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}

// A critic updated every iteration, the generator every few: the critic's
// gradients are cleared before the generator's step.
void critic_and_generator(torch::nn::Linear &generator, torch::nn::Linear &critic,
                          torch::optim::Adam &g_opt, torch::optim::Adam &d_opt,
                          const std::vector<Batch> &batches, int n_critic) {
  for (size_t i = 0; i < batches.size(); ++i) {
    d_opt.zero_grad();
    auto fake = generator(batches[i].data);
    (critic(fake.detach()).mean() - critic(batches[i].target).mean()).backward();
    d_opt.step();
    if (i % n_critic == 0) {
      g_opt.zero_grad();
      (-critic(generator(batches[i].data)).mean()).backward();
      g_opt.step();
    }
  }
}

// A step every iteration, or under another condition; the backward pass
// under the step's own condition.
void no_window(torch::nn::Linear &model, torch::optim::SGD &optimizer,
               const std::vector<Batch> &batches) {
  for (const auto &batch : batches) {
    optimizer.zero_grad();
    model(batch.data).sum().backward();
    optimizer.step();
  }
  for (const auto &batch : batches) {
    optimizer.zero_grad();
    auto loss = model(batch.data).sum();
    loss.backward();
    if (loss.item<double>() < 10)
      optimizer.step();
  }
  for (size_t i = 0; i < batches.size(); ++i) {
    if ((i + 1) % 4 == 0) {
      optimizer.zero_grad();
      model(batches[i].data).sum().backward();
      optimizer.step();
    }
  }
}

// The window's scaling made in the step size: the optimizer is built with
// the learning rate divided by N, where it is built or in the constructor
// that also sets N.
void rate_divided(torch::nn::Linear &model, const std::vector<Batch> &batches,
                  double lr, int accumulation) {
  torch::optim::SGD optimizer(model->parameters(),
                              torch::optim::SGDOptions(lr / accumulation).momentum(0.9));
  for (size_t i = 0; i < batches.size(); ++i) {
    model(batches[i].data).sum().backward();
    if ((i + 1) % accumulation == 0) {
      optimizer.step();
      optimizer.zero_grad();
    }
  }
  auto adam = std::make_unique<torch::optim::AdamW>(model->parameters(),
                                                    torch::optim::AdamWOptions().lr(lr / 4));
  for (size_t i = 0; i < batches.size(); ++i) {
    model(batches[i].data).sum().backward();
    if ((i + 1) % 4 == 0) {
      adam->step();
      adam->zero_grad();
    }
  }
}

class ScaledTrainer {
public:
  ScaledTrainer(torch::nn::Linear model, double lr, int accumulation_steps)
      : model_(model) {
    this->lr = lr / accumulation_steps; // the step size scaled for the window
    this->accumulation_steps = accumulation_steps;
  }
  void train(const std::vector<Batch> &batches) {
    torch::optim::AdamW optimizer(model_->parameters(), lr);
    for (size_t i = 0; i < batches.size(); ++i) {
      model_(batches[i].data).sum().backward();
      if ((i + 1) % accumulation_steps == 0) {
        optimizer.step();
        optimizer.zero_grad();
      }
    }
  }

private:
  torch::nn::Linear model_;
  double lr;
  int accumulation_steps;
};
