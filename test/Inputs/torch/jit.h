// Mock of <torch/jit.h>. NB: like the real one, this does not declare
// torch::jit::load(); that lives in <torch/csrc/jit/serialization/import.h>
// (pulled in by <torch/script.h>).
#pragma once

#include <torch/csrc/jit/api/module.h>
