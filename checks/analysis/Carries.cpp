//===--- Carries.cpp - What autograd may have recorded for a value --------===//

#include "checks/analysis/Carries.h"

namespace torch_tidy::analysis {

const char *Carries::name() const {
  static const char *const Names[] = {
      "no",  "leaf",          "yes",           "yes",
      "unknown", "leaf|unknown", "yes", "yes"};
  return Names[Bits & 7];
}

} // namespace torch_tidy::analysis
