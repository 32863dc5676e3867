// The segmenter's caller: it shows the masks, or, with TRAINS, fits the
// prompt points to a target mask through them.
#include "segmenter.h"
#include <iostream>

int main() {
  Segmenter segmenter("encoder.pt", "decoder.pt");
  torch::Tensor target = torch::rand({1, 1, 64, 64});
  for (int frame = 0; frame < 100; ++frame) {
    segmenter.setImage(torch::rand({1, 3, 64, 64}));
    torch::Tensor points = torch::rand({1, 5, 2}, torch::requires_grad());
    torch::Tensor masks = segmenter.segment(points);
#ifdef TRAINS
    torch::nn::functional::mse_loss(masks, target).backward();
#else
    std::cout << masks.gt(0).sum().item<int64_t>() << "\n";
#endif
  }
}
