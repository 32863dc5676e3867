// G for code that only templates the unit never instantiates call, on
// dependent values: clang resolves such a call only in an instantiation,
// so the call is taken to name the one candidate of its name that takes its
// number of arguments (among those of its scope and, for an unqualified
// name, those argument-dependent lookup finds through the arguments' known
// types), and the callee is entered as that call runs. Where
// the name leaves several candidates, nothing is resolved, and the callee is
// judged as before (here, code nothing calls, entered as main's statements
// leave grad mode by their end: recording).
// RUN: %analysis_dump %s -- %mock_torch | sort -t: -k1,1n | FileCheck %s -implicit-check-not=grad=

#include <torch/torch.h>

void probe();

template <typename T> void callee(const T &x) {
  // CHECK: [[@LINE+1]]:3: grad=not-recording loop=none
  probe();
}

template <typename T> void callee(const T &x, int n) {
  // CHECK: [[@LINE+1]]:3: grad=recording loop=none
  probe();
}

template <typename T> void either(const T &x) {
  // CHECK: [[@LINE+1]]:3: grad=recording loop=none
  probe();
}
void either(int n) {
  // CHECK: [[@LINE+1]]:3: grad=recording loop=none
  probe();
}

template <typename T> void guarded_wrapper(const T &x) {
  torch::NoGradGuard no_grad;
  callee(x);
  either(x);
  // CHECK: [[@LINE+1]]:3: grad=not-recording loop=none
  probe();
}

template <typename T> void open_wrapper(const T &x) {
  callee(x, 2);
  // CHECK: [[@LINE+1]]:3: grad=recording loop=none
  probe();
}

// Found only by argument-dependent lookup: the name in namespace inner
// hides it, and Batch brings the global namespace in.
struct Batch {};
template <typename T> void by_argument(const Batch &b, const T &x) {
  // CHECK: [[@LINE+1]]:3: grad=not-recording loop=none
  probe();
}

namespace inner {
void by_argument(int n);
template <typename T> void guarded_wrapper(const T &x) {
  torch::NoGradGuard no_grad;
  by_argument(Batch(), x);
}
} // namespace inner

int main() { return 0; }
