// Mock of <torch/csrc/jit/api/module.h>: torch::jit::Module (a.k.a.
// torch::jit::script::Module). Real 1.13 Module derives from torch::jit::Object
// and its parameters()/named_parameters() return slot lists, not vectors.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <ATen/ATen.h>
#include <ATen/core/ivalue.h>

namespace torch {
namespace jit {

using Kwargs = std::unordered_map<std::string, IValue>;
using ExtraFilesMap = std::unordered_map<std::string, std::string>;

struct TORCH_API Method {
  IValue operator()(std::vector<IValue> stack, const Kwargs& kwargs = Kwargs()) const;
  const std::string& name() const;
};

struct TORCH_API Object {
  Object() = default;
  void setattr(const std::string& name, c10::IValue v);
  c10::IValue attr(const std::string& name) const;
  c10::IValue attr(const std::string& name, c10::IValue or_else) const;
  bool hasattr(const std::string& name) const;
  Method get_method(const std::string& name) const;
  template <typename... Types>
  IValue run_method(const std::string& method_name, Types&&... args) {
    return get_method(method_name)({IValue(std::forward<Types>(args))...});
  }
};

struct TORCH_API Module : public Object {
  Module() = default;
  ~Module() = default;

  void set_optimized(bool o);
  bool is_optimized() const;

  IValue forward(std::vector<IValue> inputs, const Kwargs& kwargs = Kwargs()) {
    return get_method("forward")(std::move(inputs), kwargs);
  }

  void register_buffer(const std::string& name, at::Tensor v);
  void register_parameter(const std::string& name, at::Tensor v, bool is_buffer);
  void register_module(const std::string& name, const Module& module);

  std::vector<at::Tensor> parameters(bool recurse = true) const;
  std::vector<std::pair<std::string, at::Tensor>> named_parameters(bool recurse = true) const;
  std::vector<at::Tensor> buffers(bool recurse = true) const;
  std::vector<Module> children() const;
  std::vector<Module> modules() const;

  void train(bool on = true);
  void eval() {
    train(/*on=*/false);
  }
  bool is_training() const {
    return attr("training", true).toBool();
  }

  void to(at::Device device, at::ScalarType dtype, bool non_blocking = false);
  void to(at::ScalarType dtype, bool non_blocking = false);
  void to(at::Device device, bool non_blocking = false);

  void save(const std::string& filename, const ExtraFilesMap& extra_files = ExtraFilesMap()) const;

  Module clone(bool inplace = false) const;
  Module deepcopy() const;

  IValue operator()(std::vector<IValue> inputs);
};

namespace script {
// We once had a `script::` namespace that was deleted. This is for backcompat
// of the public API; new code should not use this type alias.
using Module = ::torch::jit::Module;
} // namespace script

} // namespace jit
} // namespace torch
