#include "policy.h"

#include <iostream>

void monitor(ActorCritic &policy, const torch::Tensor &obs) {
  for (int episode = 0; episode < 100; ++episode)
    std::cout << evaluate_return(policy, obs) << "\n";
}
