//===--- ExportedFixes.cpp - diagnostics as --export-fixes YAML -----------===//

#include "driver/report/ExportedFixes.h"

#include "clang/Tooling/DiagnosticsYaml.h"
#include "llvm/Support/YAMLTraits.h"
#include "llvm/Support/raw_ostream.h"

namespace torch_tidy {

std::string exportedFixesYaml(const std::vector<Finding> &Findings,
                              llvm::StringRef MainFile) {
  clang::tooling::TranslationUnitDiagnostics TUD;
  TUD.MainSourceFile = MainFile.str();
  for (const Finding &F : Findings) {
    clang::tooling::Diagnostic D = F.Error;
    if (F.Error.IsWarningAsError)
      D.DiagLevel = clang::tooling::Diagnostic::Error;
    TUD.Diagnostics.push_back(std::move(D));
  }
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  llvm::yaml::Output YAML(OS);
  YAML << TUD;
  OS.flush();
  return Text;
}

} // namespace torch_tidy
