// Mock of Catch2 v3's test case macros, as the check tests need them: a
// TEST_CASE is a static function that Catch registers and runs once.
#pragma once

namespace Catch {
using TestFunction = void (*)();
struct AutoReg {
  explicit AutoReg(TestFunction) {}
};
void check(bool passed);
} // namespace Catch

#define INTERNAL_CATCH_CAT2(a, b) a##b
#define INTERNAL_CATCH_CAT(a, b) INTERNAL_CATCH_CAT2(a, b)
#define INTERNAL_CATCH_TESTCASE(Function)                                      \
  static void Function();                                                      \
  namespace {                                                                  \
  Catch::AutoReg INTERNAL_CATCH_CAT(Function, _registrar)(&Function);          \
  }                                                                            \
  static void Function()
#define TEST_CASE(...)                                                         \
  INTERNAL_CATCH_TESTCASE(INTERNAL_CATCH_CAT(CATCH2_TEST_, __LINE__))
#define REQUIRE(...) Catch::check(static_cast<bool>(__VA_ARGS__))
