// G: is a no-grad guard active here? Every probe() prints the grad state
// and the innermost loop that runs it.
// RUN: %analysis_dump %s -- %mock_torch | sort -t: -k1,1n | FileCheck %s -implicit-check-not=grad=

#include <torch/torch.h>
#include <torch/script.h>
#include <thread>
#include <functional>
#include <future>
#include <vector>
#include <optional>

void probe();

struct EvalScope {
  torch::NoGradGuard no_grad;
};

void plain() {
  // CHECK: [[@LINE+1]]:3: grad=recording loop=none
  probe();
}

void named_guards(bool flag) {
  {
    torch::NoGradGuard guard;
    // CHECK: [[@LINE+1]]:5: grad=not-recording loop=none
    probe();
  }
  // The block's guard is gone.
  // CHECK: [[@LINE+1]]:3: grad=recording loop=none
  probe();
  {
    at::NoGradGuard guard;
    // CHECK: [[@LINE+1]]:5: grad=not-recording
    probe();
  }
  {
    c10::NoGradGuard guard;
    // CHECK: [[@LINE+1]]:5: grad=not-recording
    probe();
  }
  {
    c10::InferenceMode guard;
    // CHECK: [[@LINE+1]]:5: grad=not-recording
    probe();
  }
  {
    torch::autograd::InferenceMode guard(true);
    // CHECK: [[@LINE+1]]:5: grad=not-recording
    probe();
  }
  {
    torch::InferenceMode guard;
    // CHECK: [[@LINE+1]]:5: grad=not-recording
    probe();
  }
  {
    c10::InferenceMode off(false);
    // CHECK: [[@LINE+1]]:5: grad=recording
    probe();
  }
  {
    torch::AutoGradMode mode(false);
    // CHECK: [[@LINE+1]]:5: grad=not-recording
    probe();
    {
      torch::AutoGradMode enable(true);
      // CHECK: [[@LINE+1]]:7: grad=recording
      probe();
    }
    // CHECK: [[@LINE+1]]:5: grad=not-recording
    probe();
  }
  {
    torch::autograd::AutoGradMode mode(flag);
    // CHECK: [[@LINE+1]]:5: grad=unknown
    probe();
  }
  {
    EvalScope scope;
    // CHECK: [[@LINE+1]]:5: grad=not-recording
    probe();
  }
}

using Guard = torch::NoGradGuard;
typedef c10::InferenceMode Inference;
struct MyGuard : torch::NoGradGuard {};

void aliases() {
  {
    Guard g;
    // CHECK: [[@LINE+1]]:5: grad=not-recording
    probe();
  }
  {
    Inference g;
    // CHECK: [[@LINE+1]]:5: grad=not-recording
    probe();
  }
  {
    MyGuard g;
    // CHECK: [[@LINE+1]]:5: grad=not-recording
    probe();
  }
}

void temporaries_protect_nothing() {
  torch::NoGradGuard();
  torch::NoGradGuard{};
  c10::InferenceMode();
  torch::AutoGradMode(false);
  // CHECK: [[@LINE+1]]:3: grad=recording
  probe();
  auto ref = std::optional<torch::NoGradGuard>();
  // CHECK: [[@LINE+1]]:3: grad=recording
  probe();
}

void set_enabled(bool flag) {
  torch::autograd::GradMode::set_enabled(false);
  // CHECK: [[@LINE+1]]:3: grad=not-recording
  probe();
  for (int i = 0; i < 3; ++i) {
    // CHECK: [[@LINE+1]]:5: grad=not-recording loop=[[@LINE-1]]
    probe();
  }
  c10::GradMode::set_enabled(true);
  // CHECK: [[@LINE+1]]:3: grad=recording
  probe();
  if (flag)
    at::GradMode::set_enabled(false);
  // Only on one path.
  // CHECK: [[@LINE+1]]:3: grad=unknown
  probe();
}

void set_enabled_in_a_branch(bool flag) {
  if (flag) {
    c10::GradMode::set_enabled(false);
    // CHECK: [[@LINE+1]]:5: grad=not-recording
    probe();
  }
  // CHECK: [[@LINE+1]]:3: grad=unknown
  probe();
}

void lambdas() {
  torch::NoGradGuard guard;
  auto inline_lambda = [&] {
    // Runs where it is called, under the guard.
    // CHECK: [[@LINE+1]]:5: grad=not-recording
    probe();
  };
  inline_lambda();
  // Grad mode is thread-local: the new thread starts recording.
  std::thread worker([] {
    // CHECK: [[@LINE+1]]:5: grad=recording
    probe();
  });
  worker.join();
  auto result = std::async(std::launch::async, [] {
    // CHECK: [[@LINE+1]]:5: grad=recording
    probe();
  });
}

struct Evaluator {
  Evaluator() {
    torch::NoGradGuard guard;
    // CHECK: [[@LINE+1]]:5: grad=not-recording
    probe();
  }
  // A constructor's guard ends with the constructor.
  void run() {
    // CHECK: [[@LINE+1]]:5: grad=recording
    probe();
  }
};

void loops(std::vector<int> items) {
  for (int item : items) {
    // CHECK: [[@LINE+1]]:5: grad=recording loop=[[@LINE-1]]
    probe();
    while (item-- > 0) {
      // CHECK: [[@LINE+1]]:7: grad=recording loop=[[@LINE-1]]
      probe();
    }
  }
  int n = 0;
  do {
    // CHECK: [[@LINE+1]]:5: grad=recording loop=[[@LINE-1]]
    probe();
  } while (++n < 3);
  for (int i = 0; i < 3; ++i) {
    auto defined_here = [] {
      // Defined in the loop, never called there.
      // CHECK: [[@LINE+1]]:7: grad=recording loop=none
      probe();
    };
    auto called_here = [] {
      // CHECK: [[@LINE+1]]:7: grad=recording loop=[[@LINE-7]]
      probe();
    };
    called_here();
    [] {
      // CHECK: [[@LINE+1]]:7: grad=recording loop=[[@LINE-12]]
      probe();
    }();
  }
}

// Threads: a guard does not reach a lambda that runs on another thread,
// except through at::launch, which carries grad mode over.
class ThreadPool {
public:
  void enqueue(std::function<void()> task);
};
void threads(ThreadPool &pool) {
  torch::NoGradGuard no_grad;
  std::vector<std::thread> workers;
  // CHECK: [[@LINE+1]]:29: grad=recording loop=none
  workers.emplace_back([] { probe(); });
  // CHECK: [[@LINE+1]]:21: grad=recording loop=none
  pool.enqueue([] { probe(); });
  // CHECK: [[@LINE+1]]:48: grad=recording loop=none
  auto f = std::async(std::launch::async, [] { probe(); });
  // CHECK: [[@LINE+1]]:19: grad=not-recording loop=none
  at::launch([] { probe(); });
  // Run here, on this thread.
  // CHECK: [[@LINE+1]]:8: grad=not-recording loop=none
  [] { probe(); }();
}

// A lambda defined before a guard and called only under it runs guarded; one
// that is also called without the guard records.
void lambda_called_under_guard(torch::nn::Linear &model, const torch::Tensor &x) {
  auto guarded_only = [&] {
    // CHECK: [[@LINE+1]]:5: grad=not-recording loop=none
    probe();
  };
  auto both = [&] {
    // CHECK: [[@LINE+1]]:5: grad=recording loop=none
    probe();
  };
  both();
  torch::NoGradGuard no_grad;
  guarded_only();
  both();
}

// A guard copy-initialised from a temporary is a named guard: the guard type
// has a destructor, so the temporary is bound before it initialises `g`.
void copy_initialised_guards() {
  {
    auto g = torch::InferenceMode();
    // CHECK: [[@LINE+1]]:5: grad=not-recording loop=none
    probe();
  }
  {
    auto g = torch::NoGradGuard();
    // CHECK: [[@LINE+1]]:5: grad=not-recording loop=none
    probe();
  }
}

// A class that holds a guard as a member turns grad mode off for as long as
// an object of it lives: its methods run with the guard active. One whose
// member guard is built with an argument may change nothing.
class Upscaler {
  torch::NoGradGuard no_grad;
  torch::jit::script::Module module;

public:
  void run() {
    // CHECK: [[@LINE+1]]:5: grad=not-recording loop=none
    probe();
  }
  static void describe() {
    // CHECK: [[@LINE+1]]:5: grad=recording loop=none
    probe();
  }
};
class Scorer {
  c10::InferenceMode mode{false};

public:
  void run() {
    // CHECK: [[@LINE+1]]:5: grad=recording loop=none
    probe();
  }
};
// The member guard's own argument decides, whether it is written in the
// class or by the constructor that builds the object; a class derived from
// one holding a guard holds it too.
class Ranker {
  c10::InferenceMode mode{true};

public:
  void run() {
    // CHECK: [[@LINE+1]]:5: grad=not-recording loop=none
    probe();
  }
};
class Tuner {
  c10::InferenceMode mode;

public:
  Tuner() : mode(false) {}
  void run() {
    // CHECK: [[@LINE+1]]:5: grad=recording loop=none
    probe();
  }
};
class Switchable {
  c10::InferenceMode mode;

public:
  Switchable() {}
  explicit Switchable(bool on) : mode(on) {}
  void run() {
    // CHECK: [[@LINE+1]]:5: grad=unknown loop=none
    probe();
  }
};
class BatchUpscaler : public Upscaler {
public:
  void run_all() {
    // CHECK: [[@LINE+1]]:5: grad=not-recording loop=none
    probe();
  }
};

// A class whose constructor turns grad mode off for its thread and leaves
// it off: its methods run after it, on that thread, with grad mode off.
// Not when the constructor turns it back on, when a method does, or when
// the switch is under a condition.
class Aligner {
  torch::jit::script::Module net;

public:
  explicit Aligner(const std::string &path) {
    torch::autograd::GradMode::set_enabled(false);
    net = torch::jit::load(path);
  }
  void align() {
    // CHECK: [[@LINE+1]]:5: grad=not-recording loop=none
    probe();
  }
};
class Initialiser {
public:
  Initialiser() {
    torch::autograd::GradMode::set_enabled(false);
    torch::autograd::GradMode::set_enabled(true);
  }
  void run() {
    // CHECK: [[@LINE+1]]:5: grad=recording loop=none
    probe();
  }
};
class Toggler {
public:
  Toggler() { torch::autograd::GradMode::set_enabled(false); }
  void train() { torch::autograd::GradMode::set_enabled(true); }
  void run() {
    // CHECK: [[@LINE+1]]:5: grad=recording loop=none
    probe();
  }
};
class Conditional {
public:
  explicit Conditional(bool fast) {
    if (fast)
      torch::autograd::GradMode::set_enabled(false);
  }
  void run() {
    // CHECK: [[@LINE+1]]:5: grad=recording loop=none
    probe();
  }
};

// A local object of such a class: the constructor it is built with decides.
void local_member_guards(bool flag) {
  {
    Tuner tuner;
    // CHECK: [[@LINE+1]]:5: grad=recording loop=none
    probe();
  }
  {
    Switchable on(true);
    // CHECK: [[@LINE+1]]:5: grad=not-recording loop=none
    probe();
  }
  {
    Switchable maybe(flag);
    // CHECK: [[@LINE+1]]:5: grad=unknown loop=none
    probe();
  }
  {
    Ranker ranker;
    // CHECK: [[@LINE+1]]:5: grad=not-recording loop=none
    probe();
  }
}
