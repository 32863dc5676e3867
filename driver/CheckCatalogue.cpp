//===--- CheckCatalogue.cpp - what each torch-* check is ------------------===//

#include "driver/CheckCatalogue.h"

namespace torch_tidy {

static const CheckInfo Checks[] = {
    {"torch-eval-without-grad-guard",
     "A forward pass in evaluation code runs without a no-grad guard, so "
     "every call records an autograd graph that is built and thrown away."},
    {"torch-graph-accumulation",
     "A tensor that outlives the loop iteration takes on autograd history "
     "every step, so the graph of every past step stays alive."},
    {"torch-graph-in-container",
     "A tensor with autograd history is stored in a container that outlives "
     "the loop iteration, keeping each step's graph alive."},
    {"torch-retain-graph-in-loop",
     "backward() with retain_graph=true in a loop keeps every graph and its "
     "saved activations alive."},
    {"torch-unnamed-grad-guard",
     "A no-grad guard is built as a temporary and destroyed at once, so it "
     "disables nothing."},
};

llvm::ArrayRef<CheckInfo> torchChecks() { return Checks; }

llvm::StringRef checkSummary(llvm::StringRef Check) {
  for (const CheckInfo &C : Checks)
    if (Check == C.Name)
      return C.Summary;
  return "";
}

std::string checkHelpUri(llvm::StringRef Check, llvm::StringRef TorchDocBase) {
  if (Check.starts_with("torch-"))
    return TorchDocBase.str() + Check.str() + ".md";
  if (Check.starts_with("clang-diagnostic-"))
    return "https://clang.llvm.org/docs/DiagnosticsReference.html";
  if (Check.starts_with("clang-analyzer-"))
    return "https://clang.llvm.org/docs/analyzer/checkers.html";
  auto [Module, Rest] = Check.split('-');
  if (Rest.empty())
    return "https://clang.llvm.org/extra/clang-tidy/checks/list.html";
  return "https://clang.llvm.org/extra/clang-tidy/checks/" + Module.str() +
         "/" + Rest.str() + ".html";
}

} // namespace torch_tidy
