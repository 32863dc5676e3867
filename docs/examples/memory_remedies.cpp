// The remedies of docs/memory.md, measured on the CPU with torch-tidy's
// probe (its counting CPU allocator and its autograd-node count). Each
// prints the figures a remedy changes, without and with it:
//   - for one training step, the tensor bytes held when the forward is done
//     (the activations saved for the backward) and the peak of live tensor
//     bytes during the step, both above what was live before it;
//   - for a loop that keeps a metric, what it holds after its steps.
// Build and run:
//   torch-tidy verify --build-only docs/examples/memory_remedies.cpp -o remedies -- -std=c++17
//   ./remedies
#include <ATen/autocast_mode.h>
#include <torch/torch.h>

#include "torch_tidy/probe.h"

#include <algorithm>
#include <cstdio>
#include <vector>

namespace probe = torch_tidy::probe;

// A batch of 512 through four 256-wide layers: the activations (524 KB per
// layer output in float32) outweigh the weights (262 KB per layer).
constexpr int64_t Batch = 512, Width = 256;

torch::nn::Sequential makeModel(int Layers = 4) {
  torch::nn::Sequential Model;
  for (int I = 0; I < Layers; ++I) {
    Model->push_back(torch::nn::Linear(Width, Width));
    Model->push_back(torch::nn::ReLU());
  }
  return Model;
}

double liveBytes() { return static_cast<double>(probe::cpuLiveBytes()); }

struct Figures {
  double Held = 0; ///< the most held after a forward
  double Peak = 0;
};

/// Runs \p Step, which calls its argument when a forward is done, and
/// measures it above the bytes live before.
template <class F> Figures measure(F Step) {
  Figures R;
  double Before = liveBytes();
  probe::resetCpuPeak();
  Step([&] { R.Held = std::max(R.Held, liveBytes() - Before); });
  R.Peak = static_cast<double>(probe::cpuPeakBytes()) - Before;
  return R;
}

void report(const char *What, const Figures &Without, const Figures &With) {
  std::printf("%-32s held after forward %6.2f MB -> %6.2f MB (%.2fx), peak %6.2f MB -> "
              "%6.2f MB (%.2fx)\n",
              What, Without.Held / 1e6, With.Held / 1e6, With.Held / Without.Held,
              Without.Peak / 1e6, With.Peak / 1e6, With.Peak / Without.Peak);
}

// One step on the whole batch, against four micro-batches whose gradients
// add up before one optimizer step (each loss divided by 4, so that the
// gradient is the same).
void microBatches() {
  torch::manual_seed(0);
  torch::nn::Sequential Model = makeModel();
  torch::optim::SGD Optimizer(Model->parameters(), 0.01);
  torch::Tensor X = torch::randn({Batch, Width}), Y = torch::randn({Batch, Width});
  auto Whole = [&](auto Forwarded) {
    Optimizer.zero_grad();
    torch::Tensor Loss = torch::mse_loss(Model->forward(X), Y);
    Forwarded();
    Loss.backward();
    Optimizer.step();
  };
  auto Micro = [&](auto Forwarded) {
    Optimizer.zero_grad();
    const int Steps = 4;
    std::vector<torch::Tensor> Xs = X.chunk(Steps), Ys = Y.chunk(Steps);
    for (int I = 0; I < Steps; ++I) {
      torch::Tensor Loss = torch::mse_loss(Model->forward(Xs[I]), Ys[I]);
      Forwarded();
      (Loss / Steps).backward();
    }
    Optimizer.step();
  };
  Whole([] {}); // the gradients and the optimizer's state exist from here on
  report("micro-batches (4 of 128)", measure(Whole), measure(Micro));
}

// The same step with the model and the data in bfloat16 (the loss computed
// in float32, as mixed-precision training does).
void lowerPrecision() {
  torch::manual_seed(0);
  torch::nn::Sequential Model = makeModel();
  torch::Tensor X = torch::randn({Batch, Width}), Y = torch::randn({Batch, Width});
  auto Step = [&](const torch::Tensor &In) {
    return [&, In](auto Forwarded) {
      Model->zero_grad();
      torch::Tensor Out = Model->forward(In);
      Forwarded();
      torch::mse_loss(Out.to(torch::kFloat), Y).backward();
    };
  };
  Step(X)([] {});
  Figures Float = measure(Step(X));
  Model->zero_grad(/*set_to_none=*/true); // the next backward makes bfloat16 ones
  Model->to(torch::kBFloat16);
  torch::Tensor Half = X.to(torch::kBFloat16);
  Step(Half)([] {});
  report("bfloat16 model and data", Float, measure(Step(Half)));
}

/// Autocast on the CPU: matrix products in bfloat16, the model in float32.
void setCpuAutocast(bool On) {
#if TORCH_VERSION_MAJOR >= 2
  at::autocast::set_autocast_enabled(at::kCPU, On);
  at::autocast::set_autocast_dtype(at::kCPU, at::kBFloat16);
#else
  at::autocast::set_cpu_enabled(On);
  at::autocast::set_autocast_cpu_dtype(at::kBFloat16);
#endif
  if (!On)
    at::autocast::clear_cache();
}

void autocast() {
  torch::manual_seed(0);
  torch::nn::Sequential Model = makeModel();
  torch::Tensor X = torch::randn({Batch, Width}), Y = torch::randn({Batch, Width});
  auto Step = [&](auto Forwarded) {
    Model->zero_grad();
    torch::Tensor Out = Model->forward(X);
    Forwarded();
    torch::mse_loss(Out.to(torch::kFloat), Y).backward();
  };
  Step([] {});
  Figures Float = measure(Step);
  setCpuAutocast(true);
  Step([] {});
  Figures Mixed = measure(Step);
  setCpuAutocast(false);
  report("autocast to bfloat16", Float, Mixed);
}

// The model in two halves; the first half's activations are not kept: it
// runs without a graph, and again with one once the second half's backward
// has given the gradient of its output.
void recomputation() {
  torch::manual_seed(0);
  torch::nn::Sequential First = makeModel(), Second = makeModel();
  torch::Tensor X = torch::randn({Batch, Width}), Y = torch::randn({Batch, Width});
  auto Stored = [&](auto Forwarded) {
    First->zero_grad();
    Second->zero_grad();
    torch::Tensor Loss = torch::mse_loss(Second->forward(First->forward(X)), Y);
    Forwarded();
    Loss.backward();
  };
  auto Recomputed = [&](auto Forwarded) {
    First->zero_grad();
    Second->zero_grad();
    torch::Tensor Middle;
    {
      torch::NoGradGuard NoGrad;
      Middle = First->forward(X);
    }
    Middle.requires_grad_(true);
    torch::Tensor Loss = torch::mse_loss(Second->forward(Middle), Y);
    Forwarded();
    Loss.backward();
    torch::Tensor Again = First->forward(X); // with its graph, this time
    Again.backward(Middle.grad());
  };
  Stored([] {});
  report("recomputing the first half", measure(Stored), measure(Recomputed));
}

// 200 training steps that keep the loss: as a tensor with its graph,
// detached, detached and copied, or as a number. What the list holds
// afterwards: autograd nodes and tensor bytes. The backward frees what the
// graph saved, not its nodes. (A detached tensor keeps its storage: on the
// CPU, LibTorch 1.13's mse_loss returns a scalar that shares the 65.5 KB
// buffer of the unreduced 64x256 loss.)
void metricsOffTheGraph() {
  torch::manual_seed(0);
  torch::nn::Sequential Model = makeModel(2);
  torch::Tensor X = torch::randn({64, Width}), Y = torch::randn({64, Width});
  torch::mse_loss(Model->forward(X), Y).backward(); // the gradients exist from here on
  auto Run = [&](const char *How, auto Keep) {
    std::vector<torch::Tensor> Kept;
    std::vector<double> Numbers;
    double Before = liveBytes();
    for (int Step = 0; Step < 200; ++Step) {
      torch::Tensor Loss = torch::mse_loss(Model->forward(X), Y);
      Loss.backward();
      Keep(Loss, Kept, Numbers);
    }
    std::printf("%-32s %4zu autograd nodes, %6.2f MB of tensors kept after 200 steps\n", How,
                probe::countGraphNodes(Kept), (liveBytes() - Before) / 1e6);
  };
  Run("losses kept as tensors", [](const torch::Tensor &L, auto &Kept, auto &) {
    Kept.push_back(L);
  });
  Run("losses kept .detach()ed", [](const torch::Tensor &L, auto &Kept, auto &) {
    Kept.push_back(L.detach());
  });
  Run("losses kept .detach().clone()d", [](const torch::Tensor &L, auto &Kept, auto &) {
    Kept.push_back(L.detach().clone());
  });
  Run("losses kept as .item<double>()", [](const torch::Tensor &L, auto &, auto &Numbers) {
    Numbers.push_back(L.item<double>());
  });
}

int main() {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  microBatches();
  lowerPrecision();
  autocast();
  recomputation();
  metricsOffTheGraph();
  return 0;
}
