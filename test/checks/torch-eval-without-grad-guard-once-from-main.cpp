// RUN: %check_torch_tidy %s torch-eval-without-grad-guard %t

// A helper that the program's main calls once, outside any loop, to run
// the model on data from outside (an image read from disk) is inference as
// much as main's own forward would be: its graph and activations live as
// long as the output. A helper that probes shapes on a tensor made up by
// its caller is left alone, as main's own probe is; so is a helper of a
// main that trains (torch-eval-without-grad-guard-once-on-data.cpp holds
// the rules main's own forward follows).

#include <torch/torch.h>
#include <vector>

torch::Tensor load_image(const char *path);

struct DetectorImpl : torch::nn::Module {
  torch::nn::Linear body{4, 4}, head{4, 2};
  torch::Tensor forward(const torch::Tensor &x) { return head(body(x)); }
};
TORCH_MODULE(Detector);

std::vector<float> detect(Detector &net, const torch::Tensor &image) {
  torch::Tensor batch = image.unsqueeze(0);
  auto out = net->forward(batch);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: the model runs forward once with no torch::NoGradGuard or c10::InferenceMode
  // CHECK-MESSAGES: :[[@LINE-2]]:14: note: 'detect' runs it on data from outside
  // CHECK-FIXES: std::vector<float> detect(Detector &net, const torch::Tensor &image) {
  // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
  std::vector<float> boxes;
  boxes.push_back(out[0][0].item<float>());
  return boxes;
}

// Through a second helper that main calls once.
float score(Detector &net, const torch::Tensor &image) {
  return detect(net, image).front();
}

// Made up by the caller: a shape probe.
void probe(Detector &net, const torch::Tensor &shape) {
  auto y = net->forward(shape);
  std::printf("%d\n", static_cast<int>(y.size(1)));
}

// Smoke tests, evaluation code by their names, that main calls once each on
// input they make up and whose output they only print: what they record
// dies with them, however they are named.
void test_detector(Detector &net) {
  torch::Tensor x = torch::randn({2, 4});
  torch::Tensor y = net->forward(x);
  std::printf("%d\n", static_cast<int>(y.size(0)));
}

// One that puts the model in evaluation mode runs inference, as a test
// function that does is taken to.
void test_detector_in_eval_mode(Detector &net) {
  net->eval();
  auto y = net->forward(torch::ones({1, 4}));
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: the model runs forward in evaluation code
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: evaluation mode is set here
  // CHECK-FIXES: net->eval();
  // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
  std::printf("%f\n", y.sum().item<float>());
}

// The same smoke test, run by main in a loop: it runs again and again, and
// what it does with the output says it evaluates.
void test_repeated(Detector &net) {
  torch::Tensor y = net->forward(torch::randn({2, 4}));
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: the model runs forward in evaluation code
  // CHECK-MESSAGES: :[[@LINE-2]]:21: note: its result is only read as numbers or detached and dropped in 'test_repeated'
  // CHECK-FIXES: void test_repeated(Detector &net) {
  // CHECK-FIXES-NEXT: torch::NoGradGuard no_grad;
  std::printf("%d\n", static_cast<int>(y.size(0)));
}

int main(int argc, char **argv) {
  Detector net;
  torch::Tensor image = load_image(argv[1]);
  float best = score(net, image);
  probe(net, torch::zeros({1, 4}));
  test_detector(net);
  for (int i = 0; i < 3; ++i)
    test_repeated(net);
  test_detector_in_eval_mode(net);
  return static_cast<int>(best);
}
