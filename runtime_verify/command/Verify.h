//===--- Verify.h - the `torch-tidy verify` subcommand --------------------===//
#ifndef TORCH_TIDY_RUNTIME_VERIFY_COMMAND_VERIFY_H
#define TORCH_TIDY_RUNTIME_VERIFY_COMMAND_VERIFY_H

namespace torch_tidy::verify {

/// `torch-tidy verify ...`; Argv[0] is "verify". Returns 0 when no finding
/// was confirmed, 1 when at least one was, 2 when verify could not do its
/// job (bad arguments, no LibTorch, a finding that could not run).
int verifyMain(int Argc, const char **Argv);

} // namespace torch_tidy::verify

#endif
