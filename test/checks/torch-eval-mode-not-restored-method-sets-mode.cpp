// RUN: %check_torch_tidy %s torch-eval-mode-not-restored %t

// A method of the object that holds the module and that sets the module's
// mode itself before each of its training steps (a round that collects a
// rollout in evaluation mode, calls train() and updates, and ends with an
// evaluation match) is not entered in the mode the previous round left:
// calling it again from a loop trains nothing in evaluation mode. A round
// that updates in the mode it was entered in is reported. A module handed
// to a training round that never trains it (a fixed opponent, put in
// evaluation mode there) is no module that round trains; one handed to a
// function whose optimizer step may hold it is, as is a member of the
// object handed to a method of that object, which steps an optimizer of it.

#include <torch/torch.h>
#include <memory>

struct PolicyImpl : torch::nn::Module {
  torch::nn::Linear body{4, 4};
  torch::nn::Dropout dropout{0.1};
  torch::Tensor forward(const torch::Tensor &x) { return dropout(body(x)); }
};
TORCH_MODULE(Policy);

class Exploiter {
public:
  Exploiter()
      : optimizer(std::make_unique<torch::optim::SGD>(policy->parameters(), 0.1)) {}

  float round() {
    policy->eval();
    torch::Tensor states;
    {
      torch::NoGradGuard no_grad;
      states = policy(torch::ones({8, 4}));
    }
    policy->train();
    for (int epoch = 0; epoch < 4; ++epoch) {
      optimizer->zero_grad();
      policy(states).sum().backward();
      optimizer->step();
    }
    return match();
  }

  float round_in_entry_mode() {
    for (int epoch = 0; epoch < 4; ++epoch) {
      optimizer->zero_grad();
      policy(torch::ones({8, 4})).sum().backward();
      optimizer->step();
    }
    return match();
  }

  float round_against(Policy &opponent) {
    opponent->eval();
    policy->train();
    for (int epoch = 0; epoch < 4; ++epoch) {
      optimizer->zero_grad();
      torch::Tensor target;
      {
        torch::NoGradGuard no_grad;
        target = opponent(torch::ones({8, 4}));
      }
      (policy(torch::ones({8, 4})) - target).pow(2).sum().backward();
      optimizer->step();
    }
    return match();
  }

  float best_against(Policy opponent, int seeds) {
    float best = 0;
    for (int s = 0; s < seeds; ++s)
      best = std::max(best, round_against(opponent));
    return best;
  }

  void train_epoch(Policy &net) {
    for (int epoch = 0; epoch < 4; ++epoch) {
      optimizer->zero_grad();
      net(torch::ones({8, 4})).sum().backward();
      optimizer->step();
    }
  }

  void alternate_member(int rounds) {
    for (int r = 0; r < rounds; ++r) {
      train_epoch(policy);
      match();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'match' leaves 'policy' in evaluation mode inside the training loop
      // CHECK-FIXES: {{^}}      match();{{$}}
      // CHECK-FIXES: {{^}}      policy->train();{{$}}
    }
  }

  float match() {
    policy->eval();
    torch::NoGradGuard no_grad;
    return policy(torch::ones({8, 4})).sum().item<float>();
  }

  float best_of(int seeds) {
    float best = 0;
    for (int s = 0; s < seeds; ++s)
      best = std::max(best, round());
    return best;
  }

  float best_of_unset(int seeds) {
    float best = 0;
    for (int s = 0; s < seeds; ++s)
      best = std::max(best, round_in_entry_mode());
    // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: 'round_in_entry_mode' leaves 'policy' in evaluation mode inside the training loop
    return best;
  }

private:
  Policy policy;
  std::unique_ptr<torch::optim::SGD> optimizer;
};

void update(Policy &net, torch::optim::SGD &optimizer) {
  optimizer.zero_grad();
  net(torch::ones({8, 4})).sum().backward();
  optimizer.step();
}

void score(Policy &net) { net->eval(); }

void alternate(Policy &net, torch::optim::SGD &optimizer, int rounds) {
  for (int r = 0; r < rounds; ++r) {
    update(net, optimizer);
    score(net);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'score' leaves 'net' in evaluation mode inside the training loop
    // CHECK-FIXES: {{^}}    score(net);{{$}}
    // CHECK-FIXES: {{^}}    net->train();{{$}}
  }
}
