// The tensor-holding variables a value is computed from.
// RUN: %analysis_dump %s -- %mock_torch | sort -t: -k1,1n | FileCheck %s -implicit-check-not=sources=

#include <torch/torch.h>
#include <tuple>
#include <vector>

void probe_sources(const torch::Tensor &);

struct Net : torch::nn::Module {
  torch::Tensor state;
};

void sources(torch::nn::Linear &model, torch::nn::LSTM &lstm, torch::Tensor x,
             Net &net) {
  auto out = model(x);
  auto loss1 = out.sum();
  auto loss2 = out.mean();
  // CHECK: [[@LINE+1]]:3: sources=loss1,out,x
  probe_sources(loss1);
  torch::Tensor y, h, c;
  std::tie(y, std::ignore) = lstm(x);
  // CHECK: [[@LINE+1]]:3: sources=x,y
  probe_sources(y);
  auto [a, b] = std::make_tuple(out, x);
  // CHECK: [[@LINE+1]]:3: sources=a,b,out,x
  probe_sources(a + b);
  torch::Tensor total;
  total = total + loss2;
  // CHECK: [[@LINE+1]]:3: sources=loss2,out,total,x
  probe_sources(total);
  // A part of an object is computed from the object too.
  // CHECK: [[@LINE+1]]:3: sources=net,state
  probe_sources(net.state);
}

// A value written in place into a view of a tensor is written into the
// tensor: `proj` is computed from `dist` (and the index) after it.
void written_through_a_view(torch::nn::Linear &model, torch::Tensor x,
                            torch::Tensor index) {
  auto dist = model(x);
  auto proj = torch::zeros_like(dist);
  proj.view({-1}).index_add_(0, index, dist.view({-1}));
  // CHECK: [[@LINE+1]]:3: sources=dist,index,proj,x
  probe_sources(proj);
}

// Numbers read from a tensor (its sizes, an item()) carry nothing of it: a
// tensor built from them is computed from none of its variables.
void numbers_only(torch::nn::Linear &model, const torch::Tensor &x) {
  auto probe = model(x);
  auto shape = probe.sizes();
  auto width = probe.size(1);
  float scale = probe.mean().item<float>();
  auto labels = torch::zeros(shape);
  auto ones = torch::ones({width}) * scale;
  // CHECK: [[@LINE+1]]:3: sources=labels
  probe_sources(labels);
  // CHECK: [[@LINE+1]]:3: sources=ones
  probe_sources(ones);
  auto kept = probe.view(shape);
  // CHECK: [[@LINE+1]]:3: sources=kept,probe,x
  probe_sources(kept);
}

// A range-for's variable holds each element of the range in turn.
void range_for(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs) {
  std::vector<torch::Tensor> outs;
  for (const auto &x : xs)
    outs.push_back(model(x));
  torch::Tensor total = torch::zeros({});
  for (const auto &out : outs)
    total = total + out;
  // CHECK: [[@LINE+1]]:3: sources=out,outs,total,x,xs
  probe_sources(total);
}

// A local struct whose field is written holds what is written (`out.values
// = ...; return out;`), also through std::tie of its fields.
struct Outputs {
  torch::Tensor values;
  torch::Tensor action;
};
void struct_fields(torch::nn::Linear &model, torch::Tensor x, torch::Tensor y) {
  Outputs out;
  auto features = model(x);
  out.values = features * 2;
  std::tie(out.action, out.values) = std::make_tuple(y, y);
  Outputs copy = out;
  // CHECK: [[@LINE+1]]:3: sources=copy,features,out,values,x,y
  probe_sources(copy.values);
}
