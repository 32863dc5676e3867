//===--- TestHooks.cpp - where the tests reach into a run -----------------===//

#include "driver/run/TestHooks.h"

#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

namespace torch_tidy {

void testHook(TestHook Point, llvm::StringRef Subject) {
  switch (Point) {
  case TestHook::WorkerStarts: {
    std::string Fault =
        llvm::sys::Process::GetEnv("TORCH_TIDY_WORKER_FAULT").value_or("");
    if (!Fault.empty() && Subject.contains(Fault))
      std::abort();
    return;
  }
  case TestHook::BeforeFixes: {
    std::string Command =
        llvm::sys::Process::GetEnv("TORCH_TIDY_TEST_BEFORE_FIX").value_or("");
    if (!Command.empty() && std::system(Command.c_str()) != 0)
      llvm::errs()
          << "torch-tidy: warning: TORCH_TIDY_TEST_BEFORE_FIX failed\n";
    return;
  }
  }
}

} // namespace torch_tidy
