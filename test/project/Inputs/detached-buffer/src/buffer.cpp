#include "agent.h"

void ReplayBuffer::add(const torch::Tensor &state, const torch::Tensor &action) {
  states.push_back(state.detach().clone());
  actions.push_back(action.detach().clone());
}

void KeepingBuffer::add(const torch::Tensor &action) {
  actions.push_back(action);
}
