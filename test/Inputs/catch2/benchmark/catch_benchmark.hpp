// Mock of Catch2 v3's benchmarks: BENCHMARK("name") { ... }; hands the
// lambda to a Catch::Benchmark::Benchmark, which runs it through a
// Chronometer and keeps what it returns only long enough to time it.
#pragma once

#include <catch2/catch_test_macros.hpp>
#include <functional>
#include <string>
#include <utility>

namespace Catch {
namespace Benchmark {
namespace Detail {
template <typename T> void deoptimize_value(T &&x) { (void)&x; }
} // namespace Detail

struct Chronometer {
  template <typename Fun> void measure(Fun &&fun) {
    for (int i = 0; i < 3; ++i)
      Detail::deoptimize_value(fun(i));
  }
};

class Benchmark {
public:
  explicit Benchmark(std::string &&name) : name(std::move(name)) {}
  template <typename Fun> Benchmark &operator=(Fun fun) {
    run = [fun]() mutable {
      Chronometer meter;
      meter.measure(fun);
    };
    run();
    return *this;
  }
  explicit operator bool() const { return true; }

private:
  std::string name;
  std::function<void()> run;
};
} // namespace Benchmark
} // namespace Catch

#define INTERNAL_CATCH_BENCHMARK(Name, name)                                   \
  if (Catch::Benchmark::Benchmark Name{name})                                  \
  Name = [&](int)
#define BENCHMARK(name)                                                        \
  INTERNAL_CATCH_BENCHMARK(INTERNAL_CATCH_CAT(CATCH2_BENCHMARK_, __LINE__), name)
