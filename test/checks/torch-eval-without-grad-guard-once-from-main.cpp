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

int main(int argc, char **argv) {
  Detector net;
  torch::Tensor image = load_image(argv[1]);
  float best = score(net, image);
  probe(net, torch::zeros({1, 4}));
  return static_cast<int>(best);
}
