//===--- TorchTidyModule.cpp - the torch-* checks -------------------------===//
//
// Registers every row of the check table (CheckTable.cpp). Compiled into
// both front ends: the clang-tidy plugin (clang-tidy -load=TorchTidyModule.so)
// and torch-tidy.
//
//===----------------------------------------------------------------------===//

#include "checks/CheckTable.h"
#include "clang-tidy/ClangTidyCheck.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang-tidy/ClangTidyModuleRegistry.h"

namespace torch_tidy {

class TorchTidyModule : public clang::tidy::ClangTidyModule {
public:
  void addCheckFactories(clang::tidy::ClangTidyCheckFactories &Factories) override {
    for (const CheckRow &Row : checkTable())
      Factories.registerCheckFactory(Row.Name, Row.Make);
  }
};

} // namespace torch_tidy

static clang::tidy::ClangTidyModuleRegistry::Add<torch_tidy::TorchTidyModule>
    X("TorchTidyModule", "Checks for LibTorch code whose memory grows every "
                      "training step.");

// Referenced by the torch-tidy binary so that a static link keeps this file.
volatile int TorchTidyModuleAnchorSource = 0;
