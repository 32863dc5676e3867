// Compile check for the mock LibTorch headers (not a lit test).
//
//   clang++-19 -std=c++17 -fsyntax-only -Wall -isystem test/Inputs
//       test/Inputs/smoke/mock_api_usage.cpp
//
// The same file must also compile against the real LibTorch 1.13 headers:
//
//   clang++-19 -std=c++17 -fsyntax-only
//       -isystem /usr/include/torch/csrc/api/include
//       test/Inputs/smoke/mock_api_usage.cpp
//
// Everything used here is valid for both; TORCH_TIDY_MOCK (defined by the
// mock <torch/torch.h>) is not needed.
#include <torch/script.h>
#include <torch/torch.h>

#include <iostream>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

namespace F = torch::nn::functional;

struct NetImpl : torch::nn::Module {
  NetImpl(int64_t in, int64_t hidden, int64_t out)
      : fc1(register_module("fc1", torch::nn::Linear(in, hidden))),
        fc2(register_module(
            "fc2", torch::nn::Linear(torch::nn::LinearOptions(hidden, out)
                                         .bias(false)))),
        drop(register_module("drop", torch::nn::Dropout(0.5))) {
    scale = register_parameter("scale", torch::ones({1}));
    register_buffer("running", torch::zeros({out}));
  }

  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(fc1->forward(x));
    x = drop(x);
    x = F::dropout(x, F::DropoutFuncOptions().p(0.2).training(is_training()));
    return fc2(x) * scale;
  }

  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
  torch::nn::Dropout drop{nullptr};
  torch::Tensor scale;
};
TORCH_MODULE(Net);

struct SeqModelImpl : torch::nn::Module {
  SeqModelImpl() {
    lstm = register_module(
        "lstm", torch::nn::LSTM(torch::nn::LSTMOptions(8, 16).num_layers(2)
                                    .batch_first(true)));
    gru = register_module("gru", torch::nn::GRU(16, 16));
    cell = register_module("cell", torch::nn::LSTMCell(16, 16));
    gcell = register_module("gcell", torch::nn::GRUCell(16, 16));
    rcell = register_module("rcell", torch::nn::RNNCell(16, 16));
    conv = register_module(
        "conv", torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 8, 3).stride(1)
                                      .padding(1)));
    emb = register_module("emb", torch::nn::Embedding(100, 8));
    head = register_module(
        "head", torch::nn::Sequential(torch::nn::Linear(16, 4),
                                      torch::nn::ReLU(),
                                      torch::nn::Linear(4, 2)));
    layers = register_module("layers", torch::nn::ModuleList());
    layers->push_back(torch::nn::Linear(2, 2));
  }

  torch::Tensor forward(const torch::Tensor& tokens) {
    torch::Tensor x = emb(tokens);
    torch::Tensor out, h, c;
    std::tuple<torch::Tensor, torch::Tensor> state;
    std::tie(out, state) = lstm->forward(x);
    std::tie(h, c) = state;
    auto res = lstm(x, std::make_tuple(h, c));
    torch::Tensor out2 = std::get<0>(res);
    auto hc = std::get<1>(res);
    (void)hc;
    torch::Tensor gout, gh;
    std::tie(gout, gh) = gru(out2);
    auto cell_state = cell(gh[0]);
    torch::Tensor hx = std::get<0>(cell_state);
    hx = gcell(hx, gh[0]);
    hx = rcell(hx);
    torch::Tensor y = head->forward(hx);
    for (const auto& m : *layers) {
      (void)m;
    }
    return torch::log_softmax(y, /*dim=*/1);
  }

  torch::nn::LSTM lstm{nullptr};
  torch::nn::GRU gru{nullptr};
  torch::nn::LSTMCell cell{nullptr};
  torch::nn::GRUCell gcell{nullptr};
  torch::nn::RNNCell rcell{nullptr};
  torch::nn::Conv2d conv{nullptr};
  torch::nn::Embedding emb{nullptr};
  torch::nn::Sequential head{nullptr};
  torch::nn::ModuleList layers{nullptr};
};
TORCH_MODULE(SeqModel);

static double train_epoch(Net& model, torch::optim::Optimizer& optimizer,
                          const std::vector<std::pair<torch::Tensor,
                                                      torch::Tensor>>& data,
                          torch::Device device) {
  model->train();
  double total = 0.0;
  for (const auto& batch : data) {
    auto input = batch.first.to(device);
    auto target = batch.second.to(device);
    optimizer.zero_grad();
    torch::Tensor output = model(input);
    torch::Tensor loss = torch::mse_loss(output, target);
    loss.backward();
    optimizer.step();
    total += loss.item<double>();
    total += loss.item().toDouble();
  }
  return total;
}

static void evaluate(Net& model, const torch::Tensor& x, const torch::Tensor& y) {
  model->eval();
  {
    torch::NoGradGuard no_grad;
    auto logits = model->forward(x);
    auto pred = logits.argmax(1);
    auto correct = pred.eq(y).sum().item<int64_t>();
    std::cout << "correct: " << correct << "\n";
  }
  {
    c10::InferenceMode guard;
    auto out = model(x);
    std::cout << out.sizes() << "\n";
  }
  {
    // torch::InferenceMode resolves to c10::InferenceMode through the
    // `using namespace at;` / `using namespace c10;` directives (both in
    // LibTorch 1.13 and 2.x).
    torch::InferenceMode guard(true);
    (void)model(x);
  }
  {
    torch::autograd::InferenceMode guard;
    at::NoGradGuard g2;
    c10::NoGradGuard g3;
    torch::AutoGradMode enable(false);
    torch::autograd::AutoGradMode enable2(true);
    at::AutoGradMode enable3(true);
    bool was = torch::autograd::GradMode::is_enabled();
    c10::GradMode::set_enabled(was);
    (void)at::GradMode::is_enabled();
  }
}

static void tensor_ops() {
  torch::Tensor a = torch::randn({4, 3}, torch::requires_grad());
  torch::Tensor b = torch::rand({4, 3}, torch::TensorOptions().dtype(torch::kFloat)
                                            .device(torch::kCPU)
                                            .requires_grad(true));
  torch::Tensor c = torch::zeros({4, 3}, torch::kFloat);
  torch::Tensor d = torch::empty({2}, torch::dtype(torch::kLong));
  torch::Tensor e = torch::tensor({1.0, 2.0, 3.0});
  torch::Tensor f = torch::tensor({{1, 2}, {3, 4}});
  torch::Tensor g = torch::arange(10);
  torch::Tensor h = torch::randint(0, 10, {4}, torch::kLong);
  torch::Tensor i = torch::ones({4}, torch::dtype(torch::kInt));
  torch::Tensor m = torch::full({2, 2}, 1.5);

  auto s = (a * 0.5 + 1 - b / 2.0) * c;
  s = 2.0 * s - 1;
  s = -s;
  s += a;
  s -= 1;
  s *= b;
  s /= 2;
  torch::Tensor mask = a > 0.5;
  mask = (a < b) | (a == b);
  mask = a.gt(0).logical_and(a.lt(1));
  mask = a >= 0.1;
  mask = a <= b;
  mask = a != b;

  auto t = s.sum() + s.mean() + a.pow(2).sum() + a.exp().log().sqrt().abs().sum();
  t = t + torch::sum(a) + torch::mean(a) + a.max() + a.min() + torch::max(a);
  auto mx = a.max(1);
  torch::Tensor mv = std::get<0>(mx);
  auto am = a.argmax(/*dim=*/1, /*keepdim=*/false) + a.argmin() + torch::argmax(a);
  (void)mv;
  (void)am;

  auto v = a.view({-1}).reshape({2, 6}).squeeze().unsqueeze(0).contiguous();
  v = v.select(0, 0).slice(0, 0, 2).narrow(0, 0, 1);
  v = a[0] + a[torch::tensor(1)];
  v = a.index({0, torch::indexing::Slice(0, 2)});
  a.index_put_({0}, 1.0);
  a.index_put_({mask}, torch::zeros({1}));
  v = v.clone().detach().to(torch::kLong).to(torch::kCPU).cpu();
  v = v.to(torch::Device(torch::kCUDA, 0), torch::kFloat);
  if (torch::cuda::is_available()) {
    v = v.cuda();
  }
  v.detach_();
  v.add_(1).sub_(1).mul_(2).div_(2).zero_().fill_(3);
  v.copy_(c);
  v.add_(a, /*alpha=*/0.5);

  torch::Tensor sm = torch::softmax(a, 1) + torch::sigmoid(a) + torch::tanh(a);
  sm = torch::matmul(a, b.t()) + torch::mm(a, b.transpose(0, 1));
  sm = torch::cat({a, b}, 1);
  sm = torch::stack({a, b});
  sm = torch::clamp(a, 0, 1);
  sm = torch::where(a > 0, a, b);
  sm = torch::nll_loss(torch::log_softmax(a, 1), h.slice(0, 0, 4));
  sm = torch::binary_cross_entropy(torch::sigmoid(a), b);
  sm = F::mse_loss(a, b);
  sm = F::mse_loss(a, b, F::MSELossFuncOptions(torch::kSum));
  sm = F::cross_entropy(a, h);
  sm = F::relu(a);
  sm = F::log_softmax(a, /*dim=*/1);
  sm = F::log_softmax(a, F::LogSoftmaxFuncOptions(1));
  sm = torch::nn::functional::dropout(a, F::DropoutFuncOptions().p(0.1));

  std::cout << a.dim() << a.size(0) << a.numel() << a.defined()
            << a.requires_grad() << "\n";
  a.set_requires_grad(false);
  a.requires_grad_(true);
  a.requires_grad_();
  torch::Tensor data = a.data();
  torch::Tensor grad = a.grad();
  auto fn = s.grad_fn();
  if (fn) {
    for (const torch::autograd::Edge& edge : fn->next_edges()) {
      (void)edge.function;
      (void)edge.input_nr;
    }
  }
  float* p = a.data_ptr<float>();
  (void)p;
  (void)data;
  (void)grad;
  (void)d;
  (void)e;
  (void)f;
  (void)g;
  (void)i;
  (void)m;
  (void)t;
  (void)v;
  (void)sm;

  torch::autograd::Variable var = a * 2;
  torch::autograd::variable_list outs = {var.sum()};
  torch::autograd::variable_list grads =
      torch::autograd::grad(outs, {a}, {}, /*retain_graph=*/true,
                            /*create_graph=*/false, /*allow_unused=*/true);
  torch::autograd::backward({var.sum()}, {}, true);
  var.sum().backward({}, /*retain_graph=*/true);
  (void)grads;
}

static void jit_usage(const std::string& path) {
  torch::jit::script::Module legacy;
  (void)legacy;
  torch::jit::Module module = torch::jit::load(path);
  module.eval();
  module.to(torch::kCPU);
  std::vector<torch::jit::IValue> inputs;
  inputs.push_back(torch::ones({1, 3, 224, 224}));
  inputs.emplace_back(torch::ones({1}));
  at::Tensor output = module.forward(inputs).toTensor();
  c10::IValue iv = module.forward({torch::zeros({1})});
  if (iv.isTuple()) {
    auto elems = iv.toTuple()->elements();
    (void)elems;
  }
  (void)output;
}

int main() {
  torch::manual_seed(0);
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Net model(4, 8, 2);
  model->to(device);
  torch::optim::SGD sgd(model->parameters(),
                        torch::optim::SGDOptions(0.01).momentum(0.9));
  torch::optim::Adam adam(model->parameters(), torch::optim::AdamOptions(1e-3));
  std::vector<std::pair<torch::Tensor, torch::Tensor>> data;
  data.emplace_back(torch::randn({8, 4}), torch::randn({8, 2}));
  for (int epoch = 0; epoch < 3; ++epoch) {
    train_epoch(model, sgd, data, device);
    train_epoch(model, adam, data, device);
  }
  for (auto& param : model->named_parameters()) {
    std::cout << param.key() << param.value().sizes() << "\n";
  }
  for (auto& param : model->parameters()) {
    param.grad().zero_();
  }
  model->zero_grad();
  evaluate(model, torch::randn({8, 4}), torch::randint(0, 2, {8}));

  SeqModel seq;
  seq->train(false);
  torch::Tensor logits = seq(torch::randint(0, 100, {2, 5}));
  (void)logits;

  torch::nn::Sequential chain(torch::nn::Linear(4, 4), torch::nn::ReLU());
  torch::Tensor z = chain->forward(torch::ones({1, 4}));
  torch::nn::AnyModule any(torch::nn::Linear(4, 4));
  z = any.forward(z);
  (void)z;

  tensor_ops();
  jit_usage("model.pt");
  return 0;
}
