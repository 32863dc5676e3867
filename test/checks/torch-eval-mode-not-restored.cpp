// RUN: %check_torch_tidy %s torch-eval-mode-not-restored %t
// As built against LibTorch 2.x, whose headers need C++20:
// RUN: %check_torch_tidy --std=c++20 %s torch-eval-mode-not-restored %t.cxx20

#include <torch/torch.h>
#include <iostream>
#include <vector>

#define EVALUATE(m) (m)->eval()

struct Batch {
  torch::Tensor data, target;
};

struct NetImpl : torch::nn::Module {
  torch::nn::Linear backbone{4, 4}, head{4, 2};
  torch::nn::Dropout dropout{0.5};
  torch::Tensor forward(const torch::Tensor &x) { return head(dropout(backbone(x))); }
};
TORCH_MODULE(Net);

double validate(Net &model, const std::vector<Batch> &batches) {
  model->eval();
  torch::NoGradGuard no_grad;
  double total = 0;
  for (const auto &batch : batches)
    total += torch::mse_loss(model(batch.data), batch.target).item<double>();
  return total;
}

void train_epoch(Net &model, torch::optim::Optimizer &optimizer,
                 const std::vector<Batch> &batches) {
  model->train();
  for (const auto &batch : batches) {
    optimizer.zero_grad();
    torch::mse_loss(model(batch.data), batch.target).backward();
    optimizer.step();
  }
}

// ---- Flagged ----------------------------------------------------------------

// Evaluation at the end of each epoch, and training goes on in evaluation
// mode from the second epoch.
void eval_at_epoch_end(Net &model, const std::vector<Batch> &batches) {
  torch::optim::Adam optimizer(model->parameters());
  for (int epoch = 0; epoch < 10; ++epoch) {
    for (const auto &batch : batches) {
      optimizer.zero_grad();
      torch::mse_loss(model(batch.data), batch.target).backward();
      optimizer.step();
    }
    model->eval();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'model' is put in evaluation mode inside the training loop and nothing sets it back to training before the next training step, so its dropout and batch-norm layers stay in evaluation mode for the rest of training [torch-eval-mode-not-restored]
    // CHECK-MESSAGES: :[[@LINE-4]]:7: note: the next training step runs here with 'model' still in evaluation mode
    // CHECK-MESSAGES: :[[@LINE-11]]:29: note: 'model' is declared here
    torch::NoGradGuard no_grad;
    auto loss = torch::mse_loss(model(batches[0].data), batches[0].target);
    std::cout << loss.item<double>() << "\n";
  }
  // CHECK-FIXES: std::cout << loss.item<double>() << "\n";
  // CHECK-FIXES-NEXT: model->train();
  // CHECK-FIXES-NEXT: }
}

// Through a function of the unit that leaves the model in evaluation mode,
// every few epochs.
void validate_every_few_epochs(Net &model, const std::vector<Batch> &batches) {
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.1));
  for (int epoch = 0; epoch < 10; ++epoch) {
    for (const auto &batch : batches) {
      optimizer.zero_grad();
      torch::mse_loss(model(batch.data), batch.target).backward();
      optimizer.step();
    }
    if (epoch % 5 == 0) {
      double score = validate(model, batches);
      // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 'validate' leaves 'model' in evaluation mode inside the training loop and nothing sets it back to training before the next training step, so its dropout and batch-norm layers stay in evaluation mode for the rest of training [torch-eval-mode-not-restored]
      // CHECK-MESSAGES: :[[@LINE-5]]:7: note: the next training step runs here with 'model' still in evaluation mode
      // CHECK-MESSAGES: :[[@LINE-12]]:37: note: 'model' is declared here
      std::cout << score << "\n";
    }
  }
  // CHECK-FIXES: std::cout << score << "\n";
  // CHECK-FIXES-NEXT: model->train();
  // CHECK-FIXES-NEXT: }
}

// Validation before training, in the same epoch: the training that follows
// runs in evaluation mode.
void validate_first(Net &model, const std::vector<Batch> &batches) {
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.1));
  for (int epoch = 0; epoch < 10; ++epoch) {
    if (epoch > 0) {
      model->eval();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'model' is put in evaluation mode inside the training loop
      // CHECK-MESSAGES: :[[@LINE+8]]:7: note: the next training step runs here with 'model' still in evaluation mode
      // CHECK-MESSAGES: :[[@LINE-7]]:26: note: 'model' is declared here
      torch::NoGradGuard no_grad;
      std::cout << model(batches[0].data).mean().item<double>() << "\n";
    }
    for (const auto &batch : batches) {
      optimizer.zero_grad();
      torch::mse_loss(model(batch.data), batch.target).backward();
      optimizer.step();
    }
  }
  // CHECK-FIXES: std::cout << model(batches[0].data).mean().item<double>() << "\n";
  // CHECK-FIXES-NEXT: model->train();
  // CHECK-FIXES-NEXT: }
}

// Evaluation in a loop of its own, nested in the training loop: the fix
// goes after that loop.
void eval_loop_inside(Net &model, const std::vector<Batch> &batches) {
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.1));
  for (int epoch = 0; epoch < 10; ++epoch) {
    for (const auto &batch : batches) {
      optimizer.zero_grad();
      torch::mse_loss(model(batch.data), batch.target).backward();
      optimizer.step();
    }
    for (const auto &batch : batches) {
      model->eval();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'model' is put in evaluation mode inside the training loop
      // CHECK-MESSAGES: :[[@LINE-5]]:7: note: the next training step runs here with 'model' still in evaluation mode
      // CHECK-MESSAGES: :[[@LINE-12]]:28: note: 'model' is declared here
      torch::NoGradGuard no_grad;
      std::cout << model(batch.data).mean().item<double>() << "\n";
    }
  }
  // CHECK-FIXES: std::cout << model(batch.data).mean().item<double>() << "\n";
  // CHECK-FIXES-NEXT: }
  // CHECK-FIXES-NEXT: model->train();
  // CHECK-FIXES-NEXT: }
}

// Receiver-matched: the head set back to training leaves the backbone in
// evaluation mode.
void other_submodule_restored(Net &model, const std::vector<Batch> &batches) {
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.1));
  for (const auto &batch : batches) {
    optimizer.zero_grad();
    torch::mse_loss(model(batch.data), batch.target).backward();
    optimizer.step();
    model->backbone->eval();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'model->backbone' is put in evaluation mode inside the training loop
    // CHECK-MESSAGES: :[[@LINE-3]]:5: note: the next training step runs here with 'model->backbone' still in evaluation mode
    // CHECK-MESSAGES: :16:21: note: 'backbone' is declared here
    std::cout << model->backbone(batch.data).mean().item<double>() << "\n";
    model->head->train();
  }
  // CHECK-FIXES: std::cout << model->backbone(batch.data).mean().item<double>() << "\n";
  // CHECK-FIXES-NEXT: model->head->train();
  // CHECK-FIXES-NEXT: model->backbone->train();
}

// A member model of a trainer class, in a training loop of one of its
// methods.
class Trainer {
public:
  void fit(const std::vector<Batch> &batches) {
    for (int epoch = 0; epoch < 3; ++epoch) {
      for (const auto &batch : batches) {
        optimizer_.zero_grad();
        torch::mse_loss(net_(batch.data), batch.target).backward();
        optimizer_.step();
      }
      net_->eval();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'net_' is put in evaluation mode inside the training loop
      // CHECK-MESSAGES: :[[@LINE-4]]:9: note: the next training step runs here with 'net_' still in evaluation mode
      // CHECK-MESSAGES: :[[@LINE+11]]:7: note: 'net_' is declared here
      log(net_(batches[0].data));
    }
    // CHECK-FIXES: log(net_(batches[0].data));
    // CHECK-FIXES-NEXT: net_->train();
  }

private:
  void log(const torch::Tensor &out) {
    std::cout << out.mean().item<double>() << "\n";
  }
  Net net_;
  torch::optim::Adam optimizer_{net_->parameters()};
};

// A method defined out of line, after its call.
class Runner {
public:
  void fit(const std::vector<Batch> &batches);
  void check(const std::vector<Batch> &batches);

private:
  Net net_;
  torch::optim::SGD optimizer_{net_->parameters(), torch::optim::SGDOptions(0.1)};
};

void Runner::fit(const std::vector<Batch> &batches) {
  for (const auto &batch : batches) {
    optimizer_.zero_grad();
    torch::mse_loss(net_(batch.data), batch.target).backward();
    optimizer_.step();
    check(batches);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'check' leaves 'net_' in evaluation mode inside the training loop
    // CHECK-MESSAGES: :[[@LINE-3]]:5: note: the next training step runs here with 'net_' still in evaluation mode
    // CHECK-MESSAGES: :[[@LINE-12]]:7: note: 'net_' is declared here
  }
  // CHECK-FIXES: check(batches);
  // CHECK-FIXES: net_->train();
  // CHECK-FIXES-NEXT: }
}

void Runner::check(const std::vector<Batch> &batches) {
  net_->eval();
  torch::NoGradGuard no_grad;
  std::cout << net_(batches[0].data).mean().item<double>() << "\n";
}

// Through a helper that takes the mode as a flag (`set_eval(true)` runs
// `net_->train(!eval)`): the flag is read from each call.
class FlagRunner {
public:
  void set_eval(bool eval) { net_->train(!eval); }
  void fit(const std::vector<Batch> &batches) {
    for (const auto &batch : batches) {
      optimizer_.zero_grad();
      torch::mse_loss(net_(batch.data), batch.target).backward();
      optimizer_.step();
      set_eval(true);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'set_eval' leaves 'net_' in evaluation mode inside the training loop
      // CHECK-MESSAGES: :[[@LINE-3]]:7: note: the next training step runs here with 'net_' still in evaluation mode
      // CHECK-MESSAGES: :[[@LINE+34]]:7: note: 'net_' is declared here
      torch::NoGradGuard no_grad;
      std::cout << net_(batch.data).mean().item<double>() << "\n";
    }
    // CHECK-FIXES: std::cout << net_(batch.data).mean().item<double>() << "\n";
    // CHECK-FIXES-NEXT: net_->train();
    // CHECK-FIXES-NEXT: }
  }
  // An update that starts by setting the model training and ends by putting
  // it back in evaluation mode for the rollout, run for several epochs: each
  // run sets training before its own step.
  void update(const Batch &batch) {
    set_eval(false);
    optimizer_.zero_grad();
    torch::mse_loss(net_(batch.data), batch.target).backward();
    optimizer_.step();
    set_eval(true);
  }
  void fit_epochs(const std::vector<Batch> &batches) {
    for (int epoch = 0; epoch < 4; ++epoch)
      update(batches[epoch % batches.size()]);
  }
  // Set back by the same helper before the next step: nothing to report.
  void fit_restored(const std::vector<Batch> &batches) {
    for (const auto &batch : batches) {
      set_eval(false);
      optimizer_.zero_grad();
      torch::mse_loss(net_(batch.data), batch.target).backward();
      optimizer_.step();
      set_eval(true);
    }
  }

private:
  Net net_;
  torch::optim::SGD optimizer_{net_->parameters(), torch::optim::SGDOptions(0.1)};
};

// Inside a macro: reported, not fixed.
void in_a_macro(Net &model, const std::vector<Batch> &batches) {
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.1));
  for (const auto &batch : batches) {
    optimizer.zero_grad();
    torch::mse_loss(model(batch.data), batch.target).backward();
    optimizer.step();
    EVALUATE(model);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'model' is put in evaluation mode inside the training loop
    // CHECK-MESSAGES: :[[@LINE-3]]:5: note: the next training step runs here
    // CHECK-MESSAGES: :[[@LINE-9]]:22: note: 'model' is declared here
    torch::NoGradGuard no_grad;
    std::cout << model(batch.data).mean().item<double>() << "\n";
  }
}

// Set back to training only on the last epoch: every other epoch trains
// in evaluation mode.
void restored_on_last_epoch(Net &model, const std::vector<Batch> &batches, int epochs) {
  torch::optim::Adam optimizer(model->parameters());
  for (int epoch = 1; epoch <= epochs; ++epoch) {
    for (const auto &batch : batches) {
      optimizer.zero_grad();
      torch::mse_loss(model(batch.data), batch.target).backward();
      optimizer.step();
    }
    model->eval();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'model' is put in evaluation mode inside the training loop and nothing sets it back to training before the next training step
    // CHECK-MESSAGES: :[[@LINE-4]]:7: note: the next training step runs here with 'model' still in evaluation mode
    // CHECK-MESSAGES: :[[@LINE-11]]:34: note: 'model' is declared here
    std::cout << model(batches[0].data).sum().item<double>() << "\n";
    if (epoch == epochs)
      model->train();
  }
}

// ---- Not flagged ------------------------------------------------------------

// Set back to training before the next step: at the top of the epoch, after
// the evaluation, or by the function that trains.
void restored(Net &model, const std::vector<Batch> &batches) {
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.1));
  for (int epoch = 0; epoch < 10; ++epoch) {
    model->train();
    for (const auto &batch : batches) {
      optimizer.zero_grad();
      torch::mse_loss(model(batch.data), batch.target).backward();
      optimizer.step();
    }
    validate(model, batches);
  }
  for (int epoch = 0; epoch < 10; ++epoch) {
    for (const auto &batch : batches) {
      optimizer.zero_grad();
      torch::mse_loss(model(batch.data), batch.target).backward();
      optimizer.step();
    }
    model->eval();
    std::cout << model(batches[0].data).mean().item<double>() << "\n";
    model->train(true);
  }
  for (int epoch = 0; epoch < 10; ++epoch) {
    train_epoch(model, optimizer, batches);
    validate(model, batches);
  }
  // An owner set back restores its parts.
  for (int epoch = 0; epoch < 10; ++epoch) {
    model->train();
    for (const auto &batch : batches) {
      optimizer.zero_grad();
      torch::mse_loss(model(batch.data), batch.target).backward();
      optimizer.step();
    }
    model->backbone->eval();
    std::cout << model->backbone(batches[0].data).mean().item<double>() << "\n";
  }
}

// Frozen on purpose: before the loop, or set at the top of every iteration
// for the training that follows.
void frozen_on_purpose(Net &model, const std::vector<Batch> &batches) {
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.1));
  model->backbone->eval();
  for (const auto &batch : batches) {
    optimizer.zero_grad();
    torch::mse_loss(model(batch.data), batch.target).backward();
    optimizer.step();
  }
  for (const auto &batch : batches) {
    model->train();
    model->backbone->eval();
    optimizer.zero_grad();
    torch::mse_loss(model(batch.data), batch.target).backward();
    optimizer.step();
  }
}

// Frozen mid-training on purpose: its parameters stop training too.
void frozen_after_warmup(Net &model, const std::vector<Batch> &batches) {
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.1));
  for (int epoch = 0; epoch < 10; ++epoch) {
    if (epoch == 3) {
      model->backbone->eval();
      for (auto &p : model->backbone->parameters())
        p.requires_grad_(false);
    }
    for (const auto &batch : batches) {
      optimizer.zero_grad();
      torch::mse_loss(model(batch.data), batch.target).backward();
      optimizer.step();
    }
  }
}

// A module the loop does not train: a teacher.
void teacher_student(Net &student, Net &teacher, const std::vector<Batch> &batches) {
  torch::optim::Adam optimizer(student->parameters());
  for (const auto &batch : batches) {
    teacher->eval();
    torch::Tensor target;
    {
      torch::NoGradGuard no_grad;
      target = teacher(batch.data);
    }
    optimizer.zero_grad();
    torch::mse_loss(student(batch.data), target).backward();
    optimizer.step();
  }
}

// No training step after it: evaluation after training, and a loop that
// only evaluates.
void after_training(Net &model, const std::vector<Batch> &batches) {
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.1));
  for (const auto &batch : batches) {
    optimizer.zero_grad();
    torch::mse_loss(model(batch.data), batch.target).backward();
    optimizer.step();
  }
  model->eval();
  for (const auto &batch : batches) {
    model->eval();
    torch::NoGradGuard no_grad;
    std::cout << model(batch.data).mean().item<double>() << "\n";
  }
}

// Set back to training on every epoch but the last, after which no step
// runs: the path that skips train() ends the loop.
void restored_unless_last_epoch(Net &model, const std::vector<Batch> &batches, int epochs) {
  torch::optim::Adam optimizer(model->parameters());
  for (int epoch = 1; epoch <= epochs; epoch++) {
    for (const auto &batch : batches) {
      optimizer.zero_grad();
      torch::mse_loss(model(batch.data), batch.target).backward();
      optimizer.step();
    }
    model->eval();
    std::cout << model(batches[0].data).sum().item<double>() << "\n";
    if (epoch != epochs) {
      model->train();
    }
  }
  for (int epoch = 0; epoch < epochs; ++epoch) {
    for (const auto &batch : batches) {
      optimizer.zero_grad();
      torch::mse_loss(model(batch.data), batch.target).backward();
      optimizer.step();
    }
    model->eval();
    std::cout << model(batches[0].data).sum().item<double>() << "\n";
    if (epoch + 1 < epochs)
      model->train();
  }
}
