// RUN: %check_torch_tidy %s torch-unnamed-grad-guard %t
// As built against LibTorch 2.x, whose headers need C++20:
// RUN: %check_torch_tidy --std=c++20 %s torch-unnamed-grad-guard %t.cxx20

#include <torch/torch.h>
#include <optional>
#include <memory>

#define NO_GRAD_TEMPORARY() torch::NoGradGuard()
using Guard = torch::NoGradGuard;
typedef c10::InferenceMode Inference;
struct MyGuard : torch::NoGradGuard {};

torch::Tensor evaluate(torch::nn::Linear &model, const torch::Tensor &x) {
  torch::NoGradGuard();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'torch::NoGradGuard' is a temporary destroyed at the end of this statement, so it disables nothing: every following forward pass still records an autograd graph and keeps its activations in memory [torch-unnamed-grad-guard]
  // CHECK-FIXES: torch::NoGradGuard no_grad;
  return model(x);
}

void braces(torch::nn::Linear &model, const torch::Tensor &x) {
  torch::NoGradGuard{};
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'torch::NoGradGuard' is a temporary
  // CHECK-FIXES: torch::NoGradGuard no_grad;
  model(x);
}

void at_spelling() {
  at::NoGradGuard();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'at::NoGradGuard' is a temporary
  // CHECK-FIXES: at::NoGradGuard no_grad;
}

void c10_spelling() {
  c10::InferenceMode();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'c10::InferenceMode' is a temporary destroyed at the end of this statement, so it disables nothing
  // CHECK-FIXES: c10::InferenceMode inference_mode;
}

void inference_mode_torch_spelling() {
  torch::InferenceMode{};
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'torch::InferenceMode' is a temporary
  // CHECK-FIXES: torch::InferenceMode inference_mode;
}

void inference_mode_with_argument() {
  c10::InferenceMode(true);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'c10::InferenceMode' is a temporary
  // CHECK-FIXES: c10::InferenceMode inference_mode(true);
}

void auto_grad_mode() {
  torch::AutoGradMode(false);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'torch::AutoGradMode' is a temporary destroyed at the end of this statement, so it disables nothing
  // CHECK-FIXES: torch::AutoGradMode grad_mode(false);
}

void auto_grad_mode_braces() {
  torch::autograd::AutoGradMode{false};
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'torch::autograd::AutoGradMode' is a temporary
  // CHECK-FIXES: torch::autograd::AutoGradMode grad_mode{false};
}

void auto_grad_mode_enabling() {
  torch::AutoGradMode(true);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'torch::AutoGradMode' is a temporary destroyed at the end of this statement, so the grad mode it sets is undone before any following forward pass runs
  // CHECK-FIXES: torch::AutoGradMode grad_mode(true);
}

void through_aliases() {
  Guard();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'Guard' is a temporary
  // CHECK-FIXES: Guard no_grad;
  {
    Inference();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'Inference' is a temporary
    // CHECK-FIXES: Inference inference_mode;
  }
  MyGuard();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'MyGuard' is a temporary
  // CHECK-FIXES: MyGuard no_grad_2;
}

void name_taken(int no_grad) {
  torch::NoGradGuard();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'torch::NoGradGuard' is a temporary
  // CHECK-FIXES: torch::NoGradGuard no_grad_2;
}

int no_grad_counter = 0;
void name_of_a_global_in_use() {
  torch::NoGradGuard();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'torch::NoGradGuard' is a temporary
  // CHECK-FIXES: torch::NoGradGuard no_grad;
  int no_grad_2 = 0;
  ++no_grad_counter;
  torch::NoGradGuard();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'torch::NoGradGuard' is a temporary
  // CHECK-FIXES: torch::NoGradGuard no_grad_3;
  (void)no_grad_2;
}

void in_a_branch_and_a_loop(bool eval) {
  if (eval)
    torch::NoGradGuard();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'torch::NoGradGuard' is a temporary
  // CHECK-FIXES: torch::NoGradGuard no_grad;
  for (int i = 0; i < 3; ++i) {
    c10::InferenceMode();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'c10::InferenceMode' is a temporary
    // CHECK-FIXES: c10::InferenceMode inference_mode;
  }
}

void cast_to_void() {
  (void)torch::NoGradGuard();
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'torch::NoGradGuard' is a temporary
}

void in_a_lambda() {
  auto eval = [] {
    torch::NoGradGuard();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'torch::NoGradGuard' is a temporary
    // CHECK-FIXES: torch::NoGradGuard no_grad;
  };
  eval();
}

template <typename Model> void in_a_template(Model &model) {
  torch::NoGradGuard();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'torch::NoGradGuard' is a temporary
  // CHECK-FIXES: torch::NoGradGuard no_grad;
}
template void in_a_template<int>(int &);

void in_a_macro() {
  NO_GRAD_TEMPORARY();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'torch::NoGradGuard' is a temporary
  // CHECK-FIXES: NO_GRAD_TEMPORARY();
}

// A statement that names a guard type and declares nothing: clang accepts it
// ("declaration does not declare anything") and builds no node for it.
namespace named {
void qualified(torch::nn::Linear &model, const torch::Tensor &x) {
  model->eval();
  torch::NoGradGuard;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'torch::NoGradGuard;' names a guard type but declares no object, so it disables nothing: every following forward pass still records an autograd graph and keeps its activations in memory [torch-unnamed-grad-guard]
  // CHECK-FIXES: torch::NoGradGuard no_grad;
  model(x);
}

void inference_mode_and_global_qualifier() {
  c10::InferenceMode;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'c10::InferenceMode;' names a guard type but declares no object
  // CHECK-FIXES: c10::InferenceMode inference_mode;
  ::at::NoGradGuard ;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: '::at::NoGradGuard;' names a guard type
  // CHECK-FIXES: ::at::NoGradGuard no_grad ;
}

void through_using_and_aliases() {
  using namespace torch;
  NoGradGuard;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'NoGradGuard;' names a guard type
  // CHECK-FIXES: NoGradGuard no_grad;
  Inference; // the typedef at the top of the file
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'Inference;' names a guard type
  // CHECK-FIXES: Inference inference_mode; // the typedef at the top of the file
  {
    Guard; /* the alias */ torch::Tensor t;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'Guard;' names a guard type
    // CHECK-FIXES: Guard no_grad_2; /* the alias */ torch::Tensor t;
  }
}
} // namespace named

// Empty parentheses after a name declare a function (C++'s most vexing
// parse): no guard is built.
double function_declared(torch::nn::Linear &model, const torch::Tensor &x) {
  model->eval();
  torch::NoGradGuard InferenceMode();
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 'torch::NoGradGuard InferenceMode();' declares a function returning a guard, not a guard object, so it disables nothing: every following forward pass still records an autograd graph and keeps its activations in memory [torch-unnamed-grad-guard]
  // CHECK-FIXES: torch::NoGradGuard InferenceMode;
  return model(x).mean().item<double>();
}

void function_declared_other_spellings(torch::nn::Linear &model,
                                       const torch::Tensor &x) {
  c10::InferenceMode guard ( );
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 'c10::InferenceMode guard ( );' declares a function returning a guard
  // CHECK-FIXES: c10::InferenceMode guard ;
  Guard aliased(), other_name();
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'Guard aliased();' declares a function returning a guard
  // CHECK-MESSAGES: :[[@LINE-2]]:20: warning: 'Guard other_name();' declares a function returning a guard
  // CHECK-FIXES: Guard aliased, other_name;
  model(x);
}

#define NO_GRAD_NAMED(name) torch::NoGradGuard name()
void function_declared_in_a_macro() {
  NO_GRAD_NAMED(g);
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'NO_GRAD_NAMED(g);' declares a function returning a guard
  // CHECK-FIXES: NO_GRAD_NAMED(g);
}

void functions_that_are_meant() {
  // Parameters, or a guard that empty parentheses could not build: the
  // function it declares.
  torch::NoGradGuard make_guard(int);
  torch::AutoGradMode mode();
  struct Local {
    torch::NoGradGuard member_function();
  };
}

#define NOTHING
#define NO_GUARD torch::NoGradGuard
void names_not_flagged() {
  torch::Tensor;      // a type, not a guard
  struct Local {};
  Local;              // likewise
  NOTHING;            // a macro that expands to nothing
  NO_GUARD;           // a macro: reported by nobody, as clang does
#if 0
  torch::NoGradGuard;
#endif
}

// ---- Not flagged ----------------------------------------------------------

void take_guard(const torch::NoGradGuard &);
torch::NoGradGuard make_guard();

struct Evaluator {
  torch::NoGradGuard member_guard;
  std::optional<torch::NoGradGuard> maybe_guard;
  void start() { maybe_guard.emplace(); }
};

void named_guards(torch::nn::Linear &model, const torch::Tensor &x) {
  torch::NoGradGuard no_grad;
  c10::InferenceMode inference;
  torch::AutoGradMode mode(false);
  torch::NoGradGuard braced{};
  auto assigned = torch::NoGradGuard();
  const auto &bound = torch::NoGradGuard();
  std::optional<torch::NoGradGuard> optional_guard;
  optional_guard.emplace();
  auto owned = std::make_unique<torch::NoGradGuard>();
  take_guard(torch::NoGradGuard());
  model(x);
}

void most_vexing_parse_declares_a_variable() {
  // A declaration of a guard named `guard`, despite the parentheses.
  torch::NoGradGuard(guard);
}

struct NotAGuard {
  NotAGuard() {}
  ~NotAGuard() {}
};

void other_temporaries() {
  NotAGuard();
  torch::Tensor();
}

void suppressed() {
  torch::NoGradGuard(); // NOLINT(torch-unnamed-grad-guard)
  // NOLINTNEXTLINE(torch-unnamed-grad-guard)
  c10::InferenceMode();
}
