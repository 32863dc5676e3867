// Mock of <c10/core/InferenceMode.h> (same public interface as LibTorch 1.13;
// the real private members are AutogradState/LocalDispatchKeySet).
#pragma once

#include <c10/core/GradMode.h>
#include <c10/macros/Macros.h>

namespace c10 {

// A RAII, thread local (!) guard that enables or disables inference mode upon
// construction, and sets it back to the original value upon destruction.
struct TORCH_API InferenceMode {
  InferenceMode(bool enabled = true) : prev_mode(GradMode::is_enabled()) {
    // Enabling inference mode means disabling grad modes.
    GradMode::set_enabled(!enabled);
  }

  ~InferenceMode() {
    GradMode::set_enabled(prev_mode);
  }
  static bool is_enabled();

 private:
  bool prev_mode;
};

} // namespace c10
