//===--- TestHooks.h - where the tests reach into a run ---------*- C++ -*-===//
//
// The one place a check run can be disturbed on purpose, so that tests can
// show what a failing worker or a file edited during a run does. Each hook
// does nothing unless its environment variable is set:
//
//   TORCH_TIDY_WORKER_FAULT=TEXT   a worker whose file's path contains TEXT
//                                  aborts before it analyses anything
//   TORCH_TIDY_TEST_BEFORE_FIX=CMD the shell command CMD runs after the
//                                  analysis and the outputs, just before the
//                                  fixes are written
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_DRIVER_RUN_TESTHOOKS_H
#define TORCH_TIDY_DRIVER_RUN_TESTHOOKS_H

#include "llvm/ADT/StringRef.h"

namespace torch_tidy {

enum class TestHook {
  WorkerStarts, ///< a worker is about to analyse \p Subject
  BeforeFixes,  ///< the fixes are about to be written
};

/// Runs the test hook of \p Point, when its variable is set.
void testHook(TestHook Point, llvm::StringRef Subject = "");

} // namespace torch_tidy

#endif
