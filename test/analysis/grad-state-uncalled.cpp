// G in a program's own file: a function that nothing calls and that no
// other file declares runs, if ever, from main, and is entered as main's
// statements leave grad mode by their end (here: a guard held for main's
// whole body). One that a header declares, or one called with grad mode
// on, is entered recording.
// RUN: %analysis_dump %s -- %mock_torch -I%S/../checks/Inputs/uncalled-in-program | sort -t: -k1,1n | FileCheck %s -implicit-check-not=grad=

#include "served.h"

void probe();

void uncalled() {
  // CHECK: [[@LINE+1]]:3: grad=not-recording loop=none
  probe();
}

// Only an uncalled function calls it.
static void helper() {
  // CHECK: [[@LINE+1]]:3: grad=not-recording loop=none
  probe();
}
void uncalled_caller() { helper(); }

float serve(Net &net, const torch::Tensor &request) {
  // CHECK: [[@LINE+1]]:3: grad=recording loop=none
  probe();
  return 0;
}

static void called_open() {
  // CHECK: [[@LINE+1]]:3: grad=recording loop=none
  probe();
}

int main() {
  called_open();
  torch::NoGradGuard no_grad;
  return 0;
}
