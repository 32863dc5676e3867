// Mock of <torch/csrc/jit/serialization/import.h> (torch::jit::load). As in
// the real LibTorch it is reached from <torch/script.h>, not <torch/torch.h>.
#pragma once

#include <istream>
#include <string>

#include <c10/core/Device.h>
#include <c10/util/Optional.h>
#include <torch/csrc/jit/api/module.h>

namespace torch {
namespace jit {

TORCH_API Module load(
    std::istream& in,
    c10::optional<c10::Device> device = c10::nullopt);

TORCH_API Module load(
    std::istream& in,
    c10::optional<c10::Device> device,
    ExtraFilesMap& extra_files);

TORCH_API Module load(
    const std::string& filename,
    c10::optional<c10::Device> device = c10::nullopt);

TORCH_API Module load(
    const std::string& filename,
    c10::optional<c10::Device> device,
    ExtraFilesMap& extra_files);

} // namespace jit
} // namespace torch
