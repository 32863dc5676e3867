// Mock of <ATen/core/Generator.h> (opaque).
#pragma once

#include <c10/macros/Macros.h>

namespace at {

struct TORCH_API Generator {
  Generator() = default;
  bool defined() const;
};

} // namespace at
