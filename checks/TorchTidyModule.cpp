//===--- TorchTidyModule.cpp - the torch-* checks -------------------------===//
//
// Registers every torch-* check. Compiled into both front ends: the
// clang-tidy plugin (clang-tidy -load=TorchTidyModule.so) and torch-tidy.
//
//===----------------------------------------------------------------------===//

#include "checks/EvalWithoutGradGuardCheck.h"
#include "checks/GraphAccumulationCheck.h"
#include "checks/GraphInContainerCheck.h"
#include "checks/RetainGraphInLoopCheck.h"
#include "checks/UnnamedGradGuardCheck.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang-tidy/ClangTidyModuleRegistry.h"

namespace torch_tidy {

class TorchTidyModule : public clang::tidy::ClangTidyModule {
public:
  void addCheckFactories(clang::tidy::ClangTidyCheckFactories &Factories) override {
    Factories.registerCheck<EvalWithoutGradGuardCheck>(
        "torch-eval-without-grad-guard");
    Factories.registerCheck<GraphAccumulationCheck>("torch-graph-accumulation");
    Factories.registerCheck<GraphInContainerCheck>("torch-graph-in-container");
    Factories.registerCheck<RetainGraphInLoopCheck>("torch-retain-graph-in-loop");
    Factories.registerCheck<UnnamedGradGuardCheck>("torch-unnamed-grad-guard");
  }
};

} // namespace torch_tidy

static clang::tidy::ClangTidyModuleRegistry::Add<torch_tidy::TorchTidyModule>
    X("TorchTidyModule", "Checks for LibTorch code whose memory grows every "
                      "training step.");

// Referenced by the torch-tidy binary so that a static link keeps this file.
volatile int TorchTidyModuleAnchorSource = 0;
