// Mock of <c10/core/Layout.h>.
#pragma once

#include <cstdint>

#include <c10/macros/Macros.h>

namespace c10 {
enum class Layout : int8_t { Strided, Sparse, SparseCsr, Mkldnn, NumOptions };
constexpr auto kStrided = Layout::Strided;
constexpr auto kSparse = Layout::Sparse;
constexpr auto kSparseCsr = Layout::SparseCsr;
constexpr auto kMkldnn = Layout::Mkldnn;
} // namespace c10
