//===--- Carries.h - What autograd may have recorded for a value -*- C++ -*-===//
//
// The answer H gives for a value, and what function summaries record: a
// set of "a graph", "a leaf that requires gradients" and "not known".
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_ANALYSIS_CARRIES_H
#define TORCH_TIDY_ANALYSIS_CARRIES_H

#include <cstdint>

namespace torch_tidy::analysis {

/// What autograd may have recorded for a value: any mix of "a graph"
/// (grad_fn and saved activations), "a leaf that requires gradients" and
/// "not known"; nothing of these means no history.
class Carries {
public:
  Carries() = default;
  static Carries none() { return Carries(0); }
  static Carries leaf() { return Carries(LeafBit); }
  static Carries graph() { return Carries(GraphBit); }
  static Carries unknown() { return Carries(UnknownBit); }

  /// Either value (a join over paths or operands).
  Carries operator|(Carries Other) const { return Carries(Bits | Other.Bits); }
  Carries &operator|=(Carries Other) {
    Bits |= Other.Bits;
    return *this;
  }
  bool operator==(Carries Other) const { return Bits == Other.Bits; }
  bool operator!=(Carries Other) const { return Bits != Other.Bits; }

  bool mayHoldGraph() const { return Bits & GraphBit; }
  bool mayBeLeaf() const { return Bits & LeafBit; }
  bool mayBeUnknown() const { return Bits & UnknownBit; }
  bool isNone() const { return Bits == 0; }
  /// A graph or a leaf: an op with this operand records a graph.
  bool requiresGrad() const { return Bits & (GraphBit | LeafBit); }

  /// What a differentiable op with operands like this returns: a graph when
  /// any operand requires gradients.
  Carries derived() const {
    return requiresGrad() ? graph() : Carries(Bits & UnknownBit);
  }

  /// "no", "leaf", "yes" (a graph) or "unknown", most telling first.
  const char *name() const;

  /// Every bit, for writing a value out and reading it back.
  uint8_t bits() const { return Bits; }
  static Carries fromBits(uint8_t B) {
    return Carries(B & (LeafBit | GraphBit | UnknownBit));
  }

private:
  enum : uint8_t { LeafBit = 1, GraphBit = 2, UnknownBit = 4 };
  explicit Carries(uint8_t Bits) : Bits(Bits) {}
  uint8_t Bits = 0;
};

} // namespace torch_tidy::analysis

#endif
