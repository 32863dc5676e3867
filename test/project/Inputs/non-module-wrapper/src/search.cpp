#include "network.h"

float expand(NeuralNetwork &nn, torch::Tensor state) {
  auto outputs = nn.predict(state);
  return outputs.second.item<float>();
}

float search(NeuralNetwork &nn, torch::Tensor state) {
  float total = 0;
  for (int simulation = 0; simulation < 800; ++simulation)
    total += expand(nn, state);
  return total;
}
