// RUN: %torch_tidy -checks='-*,torch-*' --no-cache --export-summaries=%t.json %s -- %mock_torch > /dev/null
// RUN: %check_torch_tidy %s torch-eval-without-grad-guard %t -- -config="{CheckOptions: {FunctionSummaries: '%t.json'}}" --
// RUN: %check_torch_tidy %s torch-eval-without-grad-guard %t.alone -- -quiet --

// A forward whose result is dropped is no evaluation by that alone when
// the method keeps what it computes in members of its object: those
// members hold the graph as a variable would, and are judged as one. A
// style loss runs the extractor for its feature maps and differentiates
// them (quiet); a scorer's forward keeps only its last output, which its
// class reads as a number (flagged). A forward that gathers each level's
// output into a member vector, from which a loss is built, is no
// evaluation either (quiet); one that clears the member it wrote before it
// returns keeps nothing there (flagged).

#include <torch/torch.h>
#include <vector>

struct ExtractorImpl : torch::nn::Module {
  ExtractorImpl()
      : conv1(register_module("conv1", torch::nn::Conv2d(3, 8, 3))),
        conv2(register_module("conv2", torch::nn::Conv2d(8, 8, 3))) {}

  torch::Tensor forward(torch::Tensor x) {
    features1 = torch::Tensor();
    x = torch::relu(conv1(x));
    features1 = x;
    x = torch::relu(conv2(x));
    features2 = x;
    return x;
  }

  torch::Tensor styleLoss(torch::Tensor &canvas, const torch::Tensor &target) {
    forward(canvas);
    return torch::mse_loss(features1, target) + torch::mse_loss(features2, target);
  }

  torch::nn::Conv2d conv1{nullptr}, conv2{nullptr};
  torch::Tensor features1, features2;
};
TORCH_MODULE(Extractor);

void paint(Extractor &net, torch::Tensor &canvas, const torch::Tensor &target) {
  torch::optim::SGD optimizer({canvas}, 0.01);
  for (int step = 0; step < 100; ++step) {
    optimizer.zero_grad();
    torch::Tensor loss = net->styleLoss(canvas, target);
    loss.backward();
    optimizer.step();
  }
}

class ScorerImpl : public torch::nn::Module {
public:
  ScorerImpl() : fc(register_module("fc", torch::nn::Linear(4, 1))) {}
  torch::Tensor forward(const torch::Tensor &x) {
    last = fc(x);
    return last;
  }
  float lastScore() const { return last.sum().item<float>(); }

private:
  torch::nn::Linear fc{nullptr};
  torch::Tensor last;
};
TORCH_MODULE(Scorer);

// CHECK-FIXES: {{^}}float monitor(Scorer &scorer, const std::vector<torch::Tensor> &batches) {
// CHECK-FIXES-NEXT: {{^}}  torch::NoGradGuard no_grad;{{$}}
float monitor(Scorer &scorer, const std::vector<torch::Tensor> &batches) {
  float total = 0;
  for (const torch::Tensor &batch : batches) {
    scorer->forward(batch);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the model runs forward in evaluation code
    total += scorer->lastScore();
  }
  return total;
}

struct TowerImpl : torch::nn::Module {
  TowerImpl()
      : a(register_module("a", torch::nn::Linear(4, 4))),
        b(register_module("b", torch::nn::Linear(4, 4))) {}
  torch::Tensor forward(torch::Tensor x) {
    x = a(x);
    taps.push_back(x);
    x = b(x);
    taps.push_back(x);
    return x;
  }
  torch::Tensor tapLoss(const torch::Tensor &input) {
    taps.clear();
    forward(input);
    torch::Tensor loss = torch::zeros({});
    for (const torch::Tensor &t : taps)
      loss = loss + t.pow(2).mean();
    return loss;
  }
  torch::nn::Linear a{nullptr}, b{nullptr};
  std::vector<torch::Tensor> taps;
};
TORCH_MODULE(Tower);

void fitTower(Tower &net, const std::vector<torch::Tensor> &batches) {
  torch::optim::SGD optimizer(net->parameters(), 0.01);
  for (const torch::Tensor &batch : batches) {
    optimizer.zero_grad();
    torch::Tensor loss = net->tapLoss(batch);
    loss.backward();
    optimizer.step();
  }
}

class ProbeImpl : public torch::nn::Module {
public:
  ProbeImpl() : fc(register_module("fc", torch::nn::Linear(4, 1))) {}
  torch::Tensor forward(const torch::Tensor &x) {
    hidden = fc(x);
    torch::Tensor out = hidden.sigmoid();
    hidden = torch::Tensor();
    return out;
  }
  torch::Tensor hidden;

private:
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Probe);

bool peek(Probe &probe) { return probe->hidden.defined(); }

// CHECK-FIXES: {{^}}void warm(Probe &probe, const std::vector<torch::Tensor> &batches) {
// CHECK-FIXES-NEXT: {{^}}  torch::NoGradGuard no_grad;{{$}}
void warm(Probe &probe, const std::vector<torch::Tensor> &batches) {
  for (const torch::Tensor &batch : batches)
    probe->forward(batch);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the model runs forward in evaluation code
}
