// Mock of <c10/util/Optional.h>. The real 1.13 c10::optional is its own class
// template; here it is an alias of std::optional (as in LibTorch >= 2.1).
#pragma once

#include <optional>
#include <utility>

namespace c10 {
template <class T>
using optional = std::optional<T>;
using std::in_place;
using std::make_optional;
using std::nullopt;
using std::nullopt_t;
} // namespace c10
