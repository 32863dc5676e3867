// Losses and metrics declared here and defined in losses.cpp: a unit that
// includes only this header sees no body.
#include <torch/torch.h>
#include <tuple>

struct DetectionLossImpl : torch::nn::Module {
  // The loss to backpropagate, and its parts detached for logging.
  std::tuple<torch::Tensor, torch::Tensor> forward(const torch::Tensor &pred,
                                                   const torch::Tensor &target);
};
TORCH_MODULE(DetectionLoss);

std::tuple<torch::Tensor, torch::Tensor> loss_and_log(const torch::Tensor &pred,
                                                      const torch::Tensor &target);
torch::Tensor guarded_penalty(const torch::Tensor &pred, const torch::Tensor &target);
// A value computed before a guard, returned beside a sample drawn under it.
std::tuple<torch::Tensor, torch::Tensor> sample_and_value(const torch::Tensor &pred);
torch::Tensor squared_error(const torch::Tensor &pred, const torch::Tensor &target);
torch::Tensor with_model(torch::nn::Linear &model, const torch::Tensor &x);

// A struct of losses: the total to backpropagate, its parts detached for
// logging.
struct VaeLosses {
  torch::Tensor total, recon, kl;
};
VaeLosses vae_losses(const torch::Tensor &pred, const torch::Tensor &target);

// A trainer whose steps, defined in losses.cpp, leave the step's loss in a
// member: with its history, or detached.
class StepState {
public:
  void step(torch::nn::Linear &model, const torch::Tensor &x);
  void step_detached(torch::nn::Linear &model, const torch::Tensor &x);
  void read();
  torch::Tensor last_, clean_;
};
