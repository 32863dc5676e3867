// Mock LibTorch for the torch-tidy tests: `#include <torch/torch.h>` with
// `-isystem test/Inputs`. Declarations, namespaces, aliases and parameter
// names/defaults follow the real LibTorch 1.13 headers (Debian libtorch-dev);
// bodies are trivial or absent (compile with -fsyntax-only only).
#pragma once

#define TORCH_TIDY_MOCK 1

#include <torch/all.h>
