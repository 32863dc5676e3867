//===--- Merge.h - torch-tidy merge -----------------------------*- C++ -*-===//

#ifndef TORCH_TIDY_DRIVER_COMMANDS_MERGE_H
#define TORCH_TIDY_DRIVER_COMMANDS_MERGE_H

namespace torch_tidy {

/// `torch-tidy merge ...`; argv[0] is "merge".
int mergeMain(int Argc, const char **Argv);

} // namespace torch_tidy

#endif
