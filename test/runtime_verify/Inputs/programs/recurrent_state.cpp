// torch-graph-accumulation on a recurrent hidden state: a GRU cell run over
// a stream with autograd on, its state fed back every step.
#include "common.h"

int main() {
  torch::manual_seed(0);
  torch::Device device = pickDevice();
  torch::nn::GRUCell cell(torch::nn::GRUCellOptions(32, 64));
  cell->to(device);
  torch::Tensor x = torch::randn({16, 32}).to(device);
  torch::Tensor h = torch::zeros({16, 64}, torch::TensorOptions().device(device));
  double checksum = 0;
  for (int step = 0; step < 1000; ++step) {
    h = cell(x, h);
    checksum += h.mean().item<double>();
  }
  return checksum != 0 ? 0 : 1;
}
