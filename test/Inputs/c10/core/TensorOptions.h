// Mock of <c10/core/TensorOptions.h>.
#pragma once

#include <type_traits>
#include <utility>

#include <c10/core/Device.h>
#include <c10/core/Layout.h>
#include <c10/core/MemoryFormat.h>
#include <c10/core/ScalarType.h>
#include <c10/macros/Macros.h>
#include <c10/util/Optional.h>

namespace c10 {

struct C10_API TensorOptions {
  TensorOptions()
      : requires_grad_(false),
        pinned_memory_(false),
        has_device_(false),
        has_dtype_(false),
        has_layout_(false),
        has_requires_grad_(false),
        has_pinned_memory_(false),
        has_memory_format_(false) {}

  /* implicit */ TensorOptions(Layout layout) : TensorOptions() {
    layout_ = layout;
    has_layout_ = true;
  }

  template <
      typename T,
      typename = std::enable_if_t<std::is_same<std::decay_t<T>, Device>::value>>
  /* implicit */ TensorOptions(T&& device) : TensorOptions() {
    device_ = std::forward<T>(device);
    has_device_ = true;
  }

  template <
      typename... Args,
      typename =
          std::enable_if_t<std::is_constructible<Device, Args&&...>::value>>
  /* implicit */ TensorOptions(Args&&... args)
      : TensorOptions(Device(std::forward<Args>(args)...)) {}

  /* implicit */ TensorOptions(ScalarType dtype) : TensorOptions() {
    dtype_ = dtype;
    has_dtype_ = true;
  }

  /* implicit */ TensorOptions(MemoryFormat memory_format) : TensorOptions() {
    (void)memory_format;
    has_memory_format_ = true;
  }

  C10_NODISCARD TensorOptions
  device(c10::optional<Device> device) const noexcept {
    TensorOptions r = *this;
    if (device) {
      r.device_ = *device;
      r.has_device_ = true;
    }
    return r;
  }

  template <typename... Args>
  C10_NODISCARD TensorOptions device(Args&&... args) const noexcept {
    return device(
        c10::optional<Device>(c10::in_place, std::forward<Args>(args)...));
  }

  C10_NODISCARD TensorOptions
  device_index(int16_t device_index) const noexcept {
    return device(Device::Type::CUDA, static_cast<DeviceIndex>(device_index));
  }

  C10_NODISCARD TensorOptions
  dtype(c10::optional<ScalarType> dtype) const noexcept {
    TensorOptions r = *this;
    if (dtype) {
      r.dtype_ = *dtype;
      r.has_dtype_ = true;
    }
    return r;
  }

  C10_NODISCARD TensorOptions
  layout(c10::optional<Layout> layout) const noexcept {
    TensorOptions r = *this;
    if (layout) {
      r.layout_ = *layout;
      r.has_layout_ = true;
    }
    return r;
  }

  C10_NODISCARD TensorOptions
  requires_grad(c10::optional<bool> requires_grad) const noexcept {
    TensorOptions r = *this;
    if (requires_grad) {
      r.requires_grad_ = *requires_grad;
      r.has_requires_grad_ = true;
    }
    return r;
  }

  C10_NODISCARD TensorOptions
  pinned_memory(c10::optional<bool> pinned_memory) const noexcept {
    TensorOptions r = *this;
    if (pinned_memory) {
      r.pinned_memory_ = *pinned_memory;
      r.has_pinned_memory_ = true;
    }
    return r;
  }

  C10_NODISCARD TensorOptions
  memory_format(c10::optional<MemoryFormat> memory_format) const noexcept {
    TensorOptions r = *this;
    r.has_memory_format_ = memory_format.has_value();
    return r;
  }

  // NB: the real dtype() getter returns caffe2::TypeMeta; the mock returns
  // the ScalarType directly.
  Device device() const noexcept { return device_; }
  bool has_device() const noexcept { return has_device_; }
  c10::optional<Device> device_opt() const noexcept {
    return has_device_ ? c10::make_optional(device_) : c10::nullopt;
  }
  int32_t device_index() const noexcept { return device_.index(); }
  ScalarType dtype() const noexcept { return dtype_; }
  bool has_dtype() const noexcept { return has_dtype_; }
  c10::optional<ScalarType> dtype_opt() const noexcept {
    return has_dtype_ ? c10::make_optional(dtype_) : c10::nullopt;
  }
  Layout layout() const noexcept { return layout_; }
  bool has_layout() const noexcept { return has_layout_; }
  bool requires_grad() const noexcept {
    return has_requires_grad_ ? requires_grad_ : false;
  }
  bool has_requires_grad() const noexcept { return has_requires_grad_; }
  c10::optional<bool> requires_grad_opt() const noexcept {
    return has_requires_grad_ ? c10::make_optional(requires_grad_)
                              : c10::nullopt;
  }
  bool pinned_memory() const noexcept {
    return has_pinned_memory_ ? pinned_memory_ : false;
  }

 private:
  Device device_ = DeviceType::CPU;
  ScalarType dtype_ = ScalarType::Float;
  Layout layout_ = Layout::Strided;
  bool requires_grad_ : 1;
  bool pinned_memory_ : 1;
  bool has_device_ : 1;
  bool has_dtype_ : 1;
  bool has_layout_ : 1;
  bool has_requires_grad_ : 1;
  bool has_pinned_memory_ : 1;
  bool has_memory_format_ : 1;
};

inline TensorOptions dtype(ScalarType dtype) {
  return TensorOptions().dtype(dtype);
}

inline TensorOptions layout(Layout layout) {
  return TensorOptions().layout(layout);
}

inline TensorOptions device(Device device) {
  return TensorOptions().device(std::move(device));
}

inline TensorOptions device_index(int16_t device_index) {
  return TensorOptions().device_index(device_index);
}

inline TensorOptions requires_grad(bool requires_grad = true) {
  return TensorOptions().requires_grad(requires_grad);
}

inline TensorOptions memory_format(MemoryFormat memory_format) {
  return TensorOptions().memory_format(memory_format);
}

} // namespace c10
