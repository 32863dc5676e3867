// What calls in other units pass counts only when the function making them
// may run. In a program (a unit defines `main`), a function that no unit
// refers to runs nowhere: what it passes is evidence of nothing the program
// does. Here the driver (Inputs/uncalled-caller/driver.cpp) has two
// overloads of `update_forces`; the one its loop calls detaches the model's
// output before `set_forces`, the other does not.
// Only the detaching overload is called: quiet.
// RUN: %torch_tidy -checks='-*,torch-*' --no-cache --export-summaries=%t.json %S/Inputs/uncalled-caller/driver.cpp -- %mock_torch -I%S/Inputs/uncalled-caller > /dev/null
// RUN: %check_torch_tidy --check-suffix=UNCALLED %s torch-graph-accumulation %t.uncalled -- -config="{CheckOptions: {FunctionSummaries: '%t.json'}}" -- -I%S/Inputs/uncalled-caller
// The loop calls the other overload: its forces carry the model's graph
// into the state, stepped every iteration.
// RUN: %torch_tidy -checks='-*,torch-*' --no-cache --export-summaries=%t.both.json %S/Inputs/uncalled-caller/driver.cpp -- %mock_torch -I%S/Inputs/uncalled-caller -DCALL_BOTH > /dev/null
// RUN: %check_torch_tidy %s torch-graph-accumulation %t.both -- -config="{CheckOptions: {FunctionSummaries: '%t.both.json'}}" -- -I%S/Inputs/uncalled-caller
// A template calls it through a name it leaves unresolved: either overload
// may run.
// RUN: %torch_tidy -checks='-*,torch-*' --no-cache --export-summaries=%t.template.json %S/Inputs/uncalled-caller/driver.cpp -- %mock_torch -I%S/Inputs/uncalled-caller -DCALL_FROM_TEMPLATE > /dev/null
// RUN: %check_torch_tidy --check-suffix=TEMPLATE %s torch-graph-accumulation %t.template -- -config="{CheckOptions: {FunctionSummaries: '%t.template.json'}}" -- -I%S/Inputs/uncalled-caller
// No unit defines `main` (a library): code out of view may call either.
// RUN: %torch_tidy -checks='-*,torch-*' --no-cache --export-summaries=%t.lib.json %S/Inputs/uncalled-caller/driver.cpp -- %mock_torch -I%S/Inputs/uncalled-caller -DLIBRARY > /dev/null
// RUN: %check_torch_tidy --check-suffix=LIBRARY %s torch-graph-accumulation %t.lib -- -config="{CheckOptions: {FunctionSummaries: '%t.lib.json'}}" -- -I%S/Inputs/uncalled-caller

#include "atoms.h"

void Atoms::set_forces(const torch::Tensor &forces) { forces_ = forces; }

void Atoms::step(double dt) {
  velocities_ += dt * forces_;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'velocities_' outlives the call and takes on the autograd history of 'dt * forces_' every time, so each step's graph and saved activations stay alive and memory grows with every step [torch-graph-accumulation]
  // CHECK-MESSAGES-TEMPLATE: :[[@LINE-2]]:3: warning: 'velocities_' outlives the call and takes on the autograd history of 'dt * forces_' every time, so each step's graph and saved activations stay alive and memory grows with every step [torch-graph-accumulation]
  // CHECK-MESSAGES-LIBRARY: :[[@LINE-3]]:3: warning: 'velocities_' outlives the call and takes on the autograd history of 'dt * forces_' every time, so each step's graph and saved activations stay alive and memory grows with every step [torch-graph-accumulation]
  // CHECK-FIXES: velocities_ += (dt * forces_).detach();
  // CHECK-FIXES-TEMPLATE: velocities_ += (dt * forces_).detach();
  // CHECK-FIXES-LIBRARY: velocities_ += (dt * forces_).detach();
  positions_ += dt * velocities_;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'positions_' outlives the call and takes on the autograd history of 'dt * velocities_' every time, so each step's graph and saved activations stay alive and memory grows with every step [torch-graph-accumulation]
  // CHECK-MESSAGES-TEMPLATE: :[[@LINE-2]]:3: warning: 'positions_' outlives the call and takes on the autograd history of 'dt * velocities_' every time, so each step's graph and saved activations stay alive and memory grows with every step [torch-graph-accumulation]
  // CHECK-MESSAGES-LIBRARY: :[[@LINE-3]]:3: warning: 'positions_' outlives the call and takes on the autograd history of 'dt * velocities_' every time, so each step's graph and saved activations stay alive and memory grows with every step [torch-graph-accumulation]
  // CHECK-FIXES: positions_ += (dt * velocities_).detach();
  // CHECK-FIXES-TEMPLATE: positions_ += (dt * velocities_).detach();
  // CHECK-FIXES-LIBRARY: positions_ += (dt * velocities_).detach();
}
