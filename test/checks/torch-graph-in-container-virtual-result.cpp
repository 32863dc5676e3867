// What a virtual method returns, its body in another unit: the summarised
// body's history counts, as a body in the unit does (an override may run
// another body, but this one records a graph). A tree search that caches
// the learner's output per node in a member keeps every step's graph
// (flagged with the project's summaries); without them the call is of
// unknown origin (OPAQUE: nothing flagged).
// RUN: %torch_tidy -checks='-*,torch-*' --no-cache --export-summaries=%t.json %S/Inputs/virtual-result/learner.cpp -- %mock_torch -I%S/Inputs/virtual-result > /dev/null
// RUN: %check_torch_tidy %s torch-graph-in-container %t -- -config="{CheckOptions: {FunctionSummaries: '%t.json'}}" -- -I%S/Inputs/virtual-result
// RUN: %check_torch_tidy --check-suffix=OPAQUE %s torch-graph-in-container %t.opaque -- -quiet -- -I%S/Inputs/virtual-result

#include "learner.h"
#include <memory>
#include <tuple>
#include <unordered_map>
#include <vector>

class Search {
public:
  double policy(const std::shared_ptr<Node> &root) {
    torch::Tensor probs;
    std::tie(probs, std::ignore) = learner->predict(root->state);
    cache[root] = probs;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cache' outlives the call and each time a tensor that carries autograd history is stored in it
    // CHECK-FIXES: cache[root] = probs.detach();
    return probs[0][0].item<double>();
  }

private:
  Learner *learner;
  std::unordered_map<std::shared_ptr<Node>, torch::Tensor> cache;
};

double play(Search &search, const std::vector<std::shared_ptr<Node>> &nodes) {
  double total = 0;
  for (const auto &node : nodes)
    total += search.policy(node);
  return total;
}
