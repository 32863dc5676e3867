#include <torch/torch.h>

struct NetImpl : torch::nn::Module {
  torch::nn::Linear fc{4, 2};
  torch::Tensor forward(const torch::Tensor &x) { return fc(x); }
};
TORCH_MODULE(Net);

// Declared for other units: any of them may call these.
template <typename Data> float render(Net &net, const Data &data);
template <typename Data>
float render(Net &net, const Data &data, int repeats);
