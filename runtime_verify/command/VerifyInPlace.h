//===--- VerifyInPlace.h - verify a finding inside a real project ---------===//
#ifndef TORCH_TIDY_RUNTIME_VERIFY_COMMAND_VERIFYINPLACE_H
#define TORCH_TIDY_RUNTIME_VERIFY_COMMAND_VERIFYINPLACE_H

#include "runtime_verify/command/VerifyOptions.h"

#include <string>

namespace torch_tidy::verify {

/// `verify -p BUILD --build CMD --run CMD FILE:LINE`: instruments FILE in
/// place under a journal, runs the project's own build and run commands,
/// and always restores FILE's bytes.
int verifyInPlace(const VerifyOptions &Options, const std::string &Self);

} // namespace torch_tidy::verify

#endif
