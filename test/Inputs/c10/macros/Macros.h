// Mock of LibTorch 1.13 <c10/macros/Macros.h> (torch-tidy test input).
#pragma once

#define TORCH_API
#define C10_API
#define C10_NODISCARD [[nodiscard]]

namespace c10 {}
// As in the real header: every c10 name is also reachable through `at::`
// (and, via `namespace torch { using namespace at; }`, through `torch::`).
namespace at {
using namespace c10;
}
