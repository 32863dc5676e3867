// Mock of <torch/nn/modules/container/any.h>: type-erased module holder.
#pragma once

#include <memory>
#include <type_traits>
#include <typeinfo>
#include <utility>

#include <torch/detail/static.h>
#include <torch/nn/module.h>
#include <torch/nn/modules/container/any_value.h>
#include <torch/nn/pimpl.h>
#include <torch/types.h>

namespace torch {
namespace nn {

class AnyModule {
 public:
  /// A default-constructed `AnyModule` is in an empty state.
  AnyModule() = default;

  /// Constructs an `AnyModule` from a `shared_ptr` to concrete module object.
  template <typename ModuleType>
  explicit AnyModule(std::shared_ptr<ModuleType> module) : module_(std::move(module)) {
    static_assert(
        torch::detail::is_module<ModuleType>::value,
        "Can only store object derived from nn::Module into AnyModule");
    static_assert(
        torch::detail::has_forward<ModuleType>::value,
        "Can only store module with a forward() method that has a non-templatized"
        " argument type and return type into AnyModule");
  }

  /// Constructs an `AnyModule` from a concrete module object.
  template <
      typename ModuleType,
      typename = torch::detail::enable_if_module_t<ModuleType>>
  explicit AnyModule(ModuleType&& module)
      : AnyModule(std::make_shared<typename std::decay<ModuleType>::type>(
            std::forward<ModuleType>(module))) {}

  /// Constructs an `AnyModule` from a module holder.
  template <typename ModuleType>
  explicit AnyModule(const ModuleHolder<ModuleType>& module_holder)
      : AnyModule(module_holder.ptr()) {}

  AnyModule(AnyModule&&) = default;
  AnyModule& operator=(AnyModule&&) = default;
  AnyModule(const AnyModule& other) = default;
  AnyModule& operator=(const AnyModule& other) = default;

  AnyModule clone(optional<Device> device = nullopt) const;

  template <typename ModuleType>
  AnyModule& operator=(std::shared_ptr<ModuleType> module) {
    return (*this = AnyModule(std::move(module)));
  }

  /// Invokes `forward()` on the contained module with the given arguments, and
  /// returns the return value as an `AnyValue`.
  template <typename... ArgumentTypes>
  AnyValue any_forward(ArgumentTypes&&... arguments);

  /// Invokes `forward()` on the contained module with the given arguments, and
  /// casts the returned `AnyValue` to the supplied `ReturnType`.
  template <typename ReturnType = torch::Tensor, typename... ArgumentTypes>
  ReturnType forward(ArgumentTypes&&... arguments) {
    (void)sizeof...(arguments);
    return ReturnType();
  }

  template <typename T, typename = torch::detail::enable_if_module_t<T>>
  T& get() {
    return *std::dynamic_pointer_cast<T>(module_);
  }

  template <typename T, typename = torch::detail::enable_if_module_t<T>>
  const T& get() const {
    return *std::dynamic_pointer_cast<T>(module_);
  }

  template <typename T, typename ContainedType = typename T::ContainedType>
  T get() const {
    return T(ptr<ContainedType>());
  }

  std::shared_ptr<Module> ptr() const {
    return module_;
  }

  template <typename T, typename = torch::detail::enable_if_module_t<T>>
  std::shared_ptr<T> ptr() const {
    return std::dynamic_pointer_cast<T>(module_);
  }

  const std::type_info& type_info() const;

  bool is_empty() const noexcept {
    return module_ == nullptr;
  }

 private:
  // Real: std::unique_ptr<AnyModulePlaceholder> content_.
  std::shared_ptr<Module> module_;
};

} // namespace nn
} // namespace torch
