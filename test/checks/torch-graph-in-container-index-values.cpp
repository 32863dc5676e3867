// RUN: %check_torch_tidy %s torch-graph-in-container %t

// LibTorch takes only integer or boolean tensors as indices, and autograd
// records nothing for those: values that a function goes on to use as
// indices (coordinates taken from a model's output, masks) carry no
// history, whatever they were computed from. Values stored before the
// variable is given another one, or never used as an index, are asked as
// before.

#include <torch/torch.h>
#include <iostream>
#include <vector>

struct Seeds : torch::nn::Module {
  torch::nn::Linear net{3, 3};

  // Per-seed coordinates from the model's output, grown and filtered, then
  // used to index a histogram: integer tensors.
  std::vector<torch::Tensor> grow(const torch::Tensor &x,
                                  const torch::Tensor &hist) {
    torch::Tensor pix = net(x);
    std::vector<std::vector<torch::Tensor>> copies(pix.size(0));
    std::vector<torch::Tensor> coords;
    for (int64_t k = 0; k < pix.size(0); ++k) {
      copies[k] = pix[k].unbind(0);
      coords.clear();
      for (int64_t i = 0; i < 3; ++i)
        coords.push_back(copies[k][i] - 1);
      torch::Tensor good = hist.index({coords[0], coords[1], coords[2]}) > 2;
      for (int64_t i = 0; i < 3; ++i)
        copies[k][i] = coords[i].index({good});
    }
    std::vector<torch::Tensor> all;
    for (int64_t k = 0; k < pix.size(0); ++k) {
      torch::Tensor fg = hist.index({copies[k][0], copies[k][1], copies[k][2]});
      all.push_back(copies[k][0]);
    }
    return all;
  }

  // An index of index_select and a mask of masked_fill.
  torch::Tensor pick(const torch::Tensor &x, torch::Tensor table) {
    std::vector<torch::Tensor> rows;
    torch::Tensor mask;
    for (int i = 0; i < 4; ++i) {
      rows.push_back(net(x).sum(1));
      mask = net(x).sum(0);
      table = table.masked_fill(mask, 0);
    }
    return table.index_select(0, rows[0]);
  }

  // The same variable holds the output first, and only its argmax goes on
  // to be an index: the store before the reassignment keeps the graph.
  torch::Tensor relabel(const torch::Tensor &x, const torch::Tensor &table) {
    std::vector<torch::Tensor> kept;
    torch::Tensor out;
    for (int i = 0; i < 4; ++i) {
      out = net(x);
      kept.push_back(out);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'kept' outlives the iteration and each time a tensor that carries autograd history is stored in it
      // CHECK-FIXES: kept.push_back(out.detach());
      out = out.argmax(1);
      torch::Tensor picked = table.index({out});
    }
    return torch::stack(kept).sum();
  }

  // Never used as an index: the outputs keep their graphs.
  torch::Tensor gather(const torch::Tensor &x) {
    std::vector<torch::Tensor> outs;
    for (int i = 0; i < 4; ++i)
      outs.push_back(net(x));
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'outs' outlives the iteration and each time a tensor that carries autograd history is stored in it
    // CHECK-FIXES: outs.push_back(net(x).detach());
    return torch::stack(outs).mean();
  }
};

void run(Seeds &s, const torch::Tensor &x, const torch::Tensor &hist) {
  for (int step = 0; step < 10; ++step) {
    auto all = s.grow(x, hist);
    auto t = s.pick(x, hist);
    auto u = s.relabel(x, hist);
    auto v = s.gather(x);
    std::cout << all.size() << t.sum().item<float>() << u.item<float>()
              << v.item<float>();
  }
}
