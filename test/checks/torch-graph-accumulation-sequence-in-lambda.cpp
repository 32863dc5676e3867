// RUN: %check_torch_tidy %s torch-graph-accumulation %t

// A recurrent state local to a lambda (or function) that a training loop
// calls is made afresh on every call: unrolled over one sequence and walked
// by the backward pass after its loop, it is backpropagation through that
// sequence, not growth, even though the caller reads only numbers from what
// the lambda returns. The same unrolling with no backward pass keeps each
// call's graph for nothing.

#include <torch/torch.h>
#include <tuple>

struct RnnImpl : torch::nn::Module {
  torch::nn::Linear cell{8, 8};
  std::tuple<torch::Tensor, torch::Tensor> forward(torch::Tensor x,
                                                   torch::Tensor h) {
    torch::Tensor next = torch::tanh(cell(x) + h);
    return {next, next};
  }
  torch::Tensor init_hidden() { return torch::zeros({1, 8}); }
};
TORCH_MODULE(Rnn);

void train(Rnn &rnn, torch::optim::SGD &optimizer, const torch::Tensor &lines,
           const torch::Tensor &targets) {
  auto step = [&rnn, &optimizer](torch::Tensor line, torch::Tensor target) {
    auto hidden = rnn->init_hidden();
    optimizer.zero_grad();
    torch::Tensor output;
    for (int64_t i = 0; i < line.size(0); ++i)
      std::tie(output, hidden) = rnn->forward(line[i], hidden);
    auto loss = torch::mse_loss(output, target);
    loss.backward();
    optimizer.step();
    return std::make_tuple(output, loss.item<float>());
  };
  float total = 0;
  for (int64_t n = 0; n < lines.size(0); ++n) {
    torch::Tensor output;
    float loss;
    std::tie(output, loss) = step(lines[n], targets[n]);
    total += loss;
  }
}

float score(Rnn &rnn, const torch::Tensor &lines) {
  auto run = [&rnn](torch::Tensor line) {
    auto hidden = rnn->init_hidden();
    torch::Tensor output;
    for (int64_t i = 0; i < line.size(0); ++i)
      std::tie(output, hidden) = rnn->forward(line[i], hidden);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'hidden' is fed back into the model every iteration
    // CHECK-FIXES: std::tie(output, hidden) = rnn->forward(line[i], hidden.detach());
    return output;
  };
  float best = 0;
  for (int64_t n = 0; n < lines.size(0); ++n)
    best = std::max(best, run(lines[n]).max().item<float>());
  return best;
}
