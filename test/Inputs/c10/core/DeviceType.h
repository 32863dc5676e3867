// Mock of <c10/core/DeviceType.h>.
#pragma once

#include <cstdint>

#include <c10/macros/Macros.h>

namespace c10 {

enum class DeviceType : int8_t {
  CPU = 0,
  CUDA = 1,
  MKLDNN = 2,
  OPENGL = 3,
  OPENCL = 4,
  IDEEP = 5,
  HIP = 6,
  FPGA = 7,
  ORT = 8,
  XLA = 9,
  Vulkan = 10,
  Metal = 11,
  XPU = 12,
  MPS = 13,
  Meta = 14,
  HPU = 15,
  VE = 16,
  Lazy = 17,
  IPU = 18,
  PrivateUse1 = 19,
  COMPILE_TIME_MAX_DEVICE_TYPES = 20,
};

constexpr DeviceType kCPU = DeviceType::CPU;
constexpr DeviceType kCUDA = DeviceType::CUDA;
constexpr DeviceType kHIP = DeviceType::HIP;
constexpr DeviceType kFPGA = DeviceType::FPGA;
constexpr DeviceType kXLA = DeviceType::XLA;
constexpr DeviceType kMPS = DeviceType::MPS;
constexpr DeviceType kMeta = DeviceType::Meta;
constexpr DeviceType kVulkan = DeviceType::Vulkan;
constexpr DeviceType kMetal = DeviceType::Metal;
constexpr DeviceType kXPU = DeviceType::XPU;
constexpr DeviceType kHPU = DeviceType::HPU;
constexpr DeviceType kVE = DeviceType::VE;
constexpr DeviceType kLazy = DeviceType::Lazy;
constexpr DeviceType kIPU = DeviceType::IPU;

} // namespace c10

namespace torch {
using c10::DeviceType;
}
