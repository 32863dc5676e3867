// Mock of <c10/core/MemoryFormat.h>.
#pragma once

#include <cstdint>

#include <c10/macros/Macros.h>

namespace c10 {
enum class MemoryFormat : int8_t {
  Contiguous,
  Preserve,
  ChannelsLast,
  ChannelsLast3d,
  NumOptions
};
} // namespace c10

namespace at {
using MemoryFormat = c10::MemoryFormat;
}
