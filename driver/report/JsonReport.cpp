//===--- JsonReport.cpp - diagnostics as JSON -----------------------------===//

#include "driver/report/JsonReport.h"

using namespace clang;
namespace json = llvm::json;

namespace torch_tidy {
namespace {

json::Array fixesToJSON(const llvm::StringMap<tooling::Replacements> &Fix,
                        SourceFiles &Sources) {
  json::Array Out;
  for (const std::string &F : sortedFixFiles(Fix))
    for (const tooling::Replacement &R : Fix.lookup(F)) {
      LineColumn P = Sources.position(F, R.getOffset());
      Out.push_back(json::Object{{"file", F},
                                 {"line", P.Line},
                                 {"column", P.Column},
                                 {"offset", R.getOffset()},
                                 {"length", R.getLength()},
                                 {"replacement", R.getReplacementText().str()}});
    }
  return Out;
}

const SeverityNames JsonLevels = {"error", "warning", "remark"};

} // namespace

json::Array findingsToJSON(const std::vector<Finding> &Findings,
                           SourceFiles &Sources) {
  json::Array Out;
  for (const Finding &F : Findings) {
    const tooling::DiagnosticMessage &M = F.Error.Message;
    LineColumn P = Sources.position(M.FilePath, M.FileOffset);
    json::Array Notes;
    for (const tooling::DiagnosticMessage &N : F.Error.Notes) {
      LineColumn NP = Sources.position(N.FilePath, N.FileOffset);
      Notes.push_back(json::Object{{"file", N.FilePath},
                                   {"line", NP.Line},
                                   {"column", NP.Column},
                                   {"message", N.Message},
                                   {"fixes", fixesToJSON(N.Fix, Sources)}});
    }
    Out.push_back(json::Object{{"check", F.Error.DiagnosticName},
                               {"level", severityName(F, JsonLevels)},
                               {"file", M.FilePath},
                               {"line", P.Line},
                               {"column", P.Column},
                               {"message", M.Message},
                               {"notes", std::move(Notes)},
                               {"fixes", fixesToJSON(M.Fix, Sources)},
                               {"fingerprint", F.Fingerprint}});
  }
  return Out;
}

} // namespace torch_tidy
