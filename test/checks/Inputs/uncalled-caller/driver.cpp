// The driver of the integrator. The overload that the loop calls detaches
// the model's forces; the other hands them on undetached. Unless
// CALL_BOTH is defined, no code calls it; with CALL_FROM_TEMPLATE, a
// template calls one of the two by a name it leaves unresolved.
#include "atoms.h"

void update_forces(torch::nn::Linear &model, Atoms &atoms,
                   const torch::Tensor &x) {
  atoms.set_forces(model->forward(x).detach());
}

void update_forces(torch::nn::Linear &model, Atoms &atoms,
                   const torch::Tensor &x, double scale) {
  atoms.set_forces(model->forward(x) * scale);
}

#ifdef CALL_FROM_TEMPLATE
template <typename... Extra>
void update_all(torch::nn::Linear &model, Atoms &atoms, const torch::Tensor &x,
                Extra... extra) {
  update_forces(model, atoms, x, extra...);
}
#endif

#ifndef LIBRARY
int main() {
  torch::nn::Linear model(3, 3);
  Atoms atoms;
  torch::Tensor x = torch::randn({8, 3});
  for (int step = 0; step < 1000; ++step) {
#if defined(CALL_BOTH)
    update_forces(model, atoms, x, 0.5);
#elif defined(CALL_FROM_TEMPLATE)
    update_all(model, atoms, x);
#else
    update_forces(model, atoms, x);
#endif
    atoms.step(0.01);
  }
}
#endif
