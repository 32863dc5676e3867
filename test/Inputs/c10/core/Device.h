// Mock of <c10/core/Device.h>.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>

#include <c10/core/DeviceType.h>

namespace c10 {

using DeviceIndex = int8_t;

struct C10_API Device final {
  using Type = DeviceType;

  /* implicit */ Device(DeviceType type, DeviceIndex index = -1)
      : type_(type), index_(index) {}

  /* implicit */ Device(const std::string& device_string);

  bool operator==(const Device& other) const noexcept {
    return this->type_ == other.type_ && this->index_ == other.index_;
  }
  bool operator!=(const Device& other) const noexcept {
    return !(*this == other);
  }

  void set_index(DeviceIndex index) { index_ = index; }
  DeviceType type() const noexcept { return type_; }
  DeviceIndex index() const noexcept { return index_; }
  bool has_index() const noexcept { return index_ != -1; }
  bool is_cuda() const noexcept { return type_ == DeviceType::CUDA; }
  bool is_mps() const noexcept { return type_ == DeviceType::MPS; }
  bool is_cpu() const noexcept { return type_ == DeviceType::CPU; }
  std::string str() const;

 private:
  DeviceType type_;
  DeviceIndex index_ = -1;
};

C10_API std::ostream& operator<<(std::ostream& stream, const Device& device);

} // namespace c10
