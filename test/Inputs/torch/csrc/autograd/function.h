// Mock of <torch/csrc/autograd/function.h>: torch::autograd::Node.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <torch/csrc/autograd/edge.h>
#include <torch/csrc/autograd/variable.h>

namespace torch {
namespace autograd {

using variable_list = std::vector<Variable>;
using edge_list = std::vector<Edge>;

struct TORCH_API Node : std::enable_shared_from_this<Node> {
 public:
  /// Construct a new `Node` with the given `next_edges`
  explicit Node(uint64_t sequence_nr, edge_list&& next_edges = edge_list())
      : sequence_nr_(sequence_nr), next_edges_(std::move(next_edges)) {}

  explicit Node(edge_list&& next_edges = edge_list())
      : Node(/*sequence_nr=*/0, std::move(next_edges)) {}

  /// Nodes are neither copyable nor moveable.
  Node(const Node& other) = delete;
  Node(Node&& other) = delete;
  Node& operator=(const Node& other) = delete;
  Node& operator=(Node&& other) = delete;
  virtual ~Node() = default;

  /// Evaluates the function on the given inputs and returns the result of the
  /// function call.
  variable_list operator()(variable_list&& inputs) {
    return apply(std::move(inputs));
  }

  uint32_t num_inputs() const noexcept;

  const Edge& next_edge(size_t index) const noexcept {
    return next_edges_[index];
  }

  void set_next_edge(size_t index, Edge edge) {
    next_edges_[index] = std::move(edge);
  }

  void add_next_edge(Edge edge) {
    next_edges_.push_back(std::move(edge));
  }

  void set_next_edges(edge_list&& next_edges) {
    next_edges_ = std::move(next_edges);
  }

  const edge_list& next_edges() const noexcept {
    return next_edges_;
  }

  edge_list& next_edges() noexcept {
    return next_edges_;
  }

  uint32_t num_outputs() const noexcept {
    return static_cast<uint32_t>(next_edges_.size());
  }

  uint64_t sequence_nr() const noexcept {
    return sequence_nr_;
  }

  /// Returns the name of the dynamic type of the function, for debugging.
  virtual std::string name() const;

  /// Releases saved variables if the operation won't be reused.
  virtual void release_variables() {}

 protected:
  /// Performs the `Node`'s actual operation.
  virtual variable_list apply(variable_list&& inputs) = 0;

  const uint64_t sequence_nr_;
  edge_list next_edges_;
};

} // namespace autograd
} // namespace torch
