// Mock of <torch/nn/cloneable.h>.
#pragma once

#include <memory>

#include <torch/nn/module.h>
#include <torch/types.h>

namespace torch {
namespace nn {

/// The `clone()` method in the base `Module` class does not have knowledge of
/// the concrete runtime type of its subclasses; `Cloneable` provides it.
template <typename Derived>
class Cloneable : public Module {
 public:
  using Module::Module;

  /// `reset()` must perform initialization of all members with reference
  /// semantics, most importantly parameters, buffers and submodules.
  virtual void reset() = 0;

  std::shared_ptr<Module> clone(
      const optional<Device>& device = nullopt) const override {
    (void)device;
    return std::make_shared<Derived>(static_cast<const Derived&>(*this));
  }
};

} // namespace nn
} // namespace torch
