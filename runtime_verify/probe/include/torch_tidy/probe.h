//===--- probe.h - sample autograd graph size and live tensor bytes -------===//
//
// The torch-tidy runtime probe. Each sample records, for the watched values:
// the autograd nodes reachable from them (each node once), the live tensor
// bytes (a counting wrapper around the CPU allocator; CUDA caching-allocator
// statistics when the probe is built with TORCH_TIDY_PROBE_CUDA) and the
// devices they live on, and writes one JSON line to the trace.
//
//   TORCH_TIDY_PROBE("epoch_loss", total);         // anywhere in a loop
//   TORCH_TIDY_PROBE("outputs", outputs, hidden);  // containers, tuples too
//
// Environment:
//   TORCH_TIDY_PROBE_TRACE       trace path (JSON lines, appended); unset:
//                                standard error
//   TORCH_TIDY_PROBE_STOP_AFTER  stop the program (exit status 0) once one
//                                probe has taken this many samples
//
// Link the probe library (CMake target torch_tidy_probe), or define
// TORCH_TIDY_PROBE_IMPLEMENTATION before including this header in exactly
// one translation unit.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_PROBE_H
#define TORCH_TIDY_PROBE_H

#include <ATen/core/Tensor.h>
#include <ATen/core/ivalue.h>

#include <cstddef>
#include <deque>
#include <iterator>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace torch_tidy::probe {

using TensorList = std::vector<at::Tensor>;

/// Takes one sample of the given tensors under the probe name `name`.
void record(const char *name, const TensorList &tensors);

/// Installs the counting CPU allocator (done at start-up by the library;
/// calling it again does nothing).
void installCpuCounter();

/// Live bytes allocated through the CPU allocator since the counter was
/// installed, and their peak.
std::size_t cpuLiveBytes();
std::size_t cpuPeakBytes();
/// Starts the peak again from the bytes live now (to measure one step).
void resetCpuPeak();

/// Autograd nodes reachable from the tensors, each counted once.
std::size_t countGraphNodes(const TensorList &tensors);

namespace detail {
template <int N> struct Rank : Rank<N - 1> {};
template <> struct Rank<0> {};

// Anything that holds no tensor contributes nothing.
template <class T> void collect(TensorList &, const T &, Rank<0>) {}

// Ranges: std::vector, std::deque, std::list, std::map, ...
template <class T>
auto collect(TensorList &Out, const T &Range, Rank<1>)
    -> decltype(std::begin(Range), std::end(Range), void()) {
  for (const auto &Element : Range)
    collect(Out, Element, Rank<4>{});
}

template <class A, class B>
void collect(TensorList &Out, const std::pair<A, B> &P, Rank<2>) {
  collect(Out, P.first, Rank<4>{});
  collect(Out, P.second, Rank<4>{});
}

template <class... Ts>
void collect(TensorList &Out, const std::tuple<Ts...> &T, Rank<2>) {
  std::apply([&Out](const auto &...E) { (collect(Out, E, Rank<4>{}), ...); }, T);
}

template <class T>
void collect(TensorList &Out, const c10::optional<T> &O, Rank<2>) {
  if (O)
    collect(Out, *O, Rank<4>{});
}

// Tensors and IValues match exactly (no implicit conversion into them).
template <class T, std::enable_if_t<std::is_base_of<at::Tensor, T>::value, int> = 0>
void collect(TensorList &Out, const T &Tensor, Rank<3>) {
  if (Tensor.defined())
    Out.push_back(Tensor);
}

void collectIValue(TensorList &Out, const c10::IValue &V);
template <class T, std::enable_if_t<std::is_same<c10::IValue, T>::value, int> = 0>
void collect(TensorList &Out, const T &V, Rank<3>) {
  collectIValue(Out, V);
}

// Entry point: the most specific overload wins.
template <class T> void collectAny(TensorList &Out, const T &V) {
  collect(Out, V, Rank<4>{});
}
} // namespace detail

/// Samples every tensor held by `Values` (tensors, IValues, containers,
/// pairs, tuples, optionals, nested).
template <class... Ts> void sample(const char *Name, const Ts &...Values) {
  TensorList Tensors;
  (detail::collectAny(Tensors, Values), ...);
  record(Name, Tensors);
}

/// Runs `Fn` when it goes out of scope: placed first in a loop body, it
/// samples at the end of every iteration, whichever way it ends (`continue`,
/// `break`, an exception).
template <class F> class AtScopeEnd {
public:
  explicit AtScopeEnd(F Fn) : Fn(std::move(Fn)) {}
  AtScopeEnd(const AtScopeEnd &) = delete;
  AtScopeEnd &operator=(const AtScopeEnd &) = delete;
  ~AtScopeEnd() {
    try {
      Fn();
    } catch (...) {
    }
  }

private:
  F Fn;
};
template <class F> AtScopeEnd<F> atScopeEnd(F Fn) { return AtScopeEnd<F>(std::move(Fn)); }

/// Samples a value as it passes (the result of a forward call) and hands it on.
template <class T> std::decay_t<T> watch(const char *Name, T &&Value) {
  sample(Name, Value);
  return std::forward<T>(Value);
}

} // namespace torch_tidy::probe

#define TORCH_TIDY_PROBE(...) ::torch_tidy::probe::sample(__VA_ARGS__)

#endif // TORCH_TIDY_PROBE_H

// Outside the include guard: a file may include the header first and ask for
// the implementation later.
#ifdef TORCH_TIDY_PROBE_IMPLEMENTATION
#include "torch_tidy/probe_impl.h"
#endif
