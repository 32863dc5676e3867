//===--- ApplyCommand.h - torch-tidy apply-fixes ----------------*- C++ -*-===//

#ifndef TORCH_TIDY_DRIVER_COMMANDS_APPLYCOMMAND_H
#define TORCH_TIDY_DRIVER_COMMANDS_APPLYCOMMAND_H

namespace torch_tidy {

/// `torch-tidy apply-fixes ...`; argv[0] is "apply-fixes".
int applyFixesMain(int Argc, const char **Argv);

} // namespace torch_tidy

#endif
