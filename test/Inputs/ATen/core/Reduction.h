// Mock of <ATen/core/Reduction.h>.
#pragma once

namespace at {
namespace Reduction {
enum Reduction {
  None,
  Mean,
  Sum,
  END
};
} // namespace Reduction
} // namespace at
