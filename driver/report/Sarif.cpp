//===--- Sarif.cpp - diagnostics as SARIF 2.1.0 ---------------------------===//

#include "driver/report/Sarif.h"

#include "checks/CheckTable.h"
#include "llvm/ADT/StringExtras.h"
#include <map>
#include <set>

using namespace clang;
namespace json = llvm::json;

namespace torch_tidy {
namespace {

std::string percentEncode(llvm::StringRef Path) {
  std::string Out;
  for (unsigned char C : Path) {
    if (llvm::isAlnum(C) || llvm::StringRef("/-._~").contains(C))
      Out += C;
    else {
      Out += '%';
      Out += llvm::hexdigit(C >> 4);
      Out += llvm::hexdigit(C & 15);
    }
  }
  return Out;
}

json::Object artifactLocation(llvm::StringRef Path, llvm::StringRef Root) {
  std::string Rel = relativeTo(Path, Root);
  if (Rel != llvm::sys::path::convert_to_slash(Path))
    return json::Object{{"uri", percentEncode(Rel)}, {"uriBaseId", "SRCROOT"}};
  return json::Object{{"uri", fileUri(Path)}};
}

json::Object physicalLocation(llvm::StringRef Path, unsigned Offset,
                              SourceFiles &Sources, llvm::StringRef Root) {
  LineColumn P = Sources.position(Path, Offset);
  json::Object Region;
  if (P.Line)
    Region = json::Object{{"startLine", P.Line}, {"startColumn", P.Column}};
  else
    Region = json::Object{{"byteOffset", Offset}};
  return json::Object{{"artifactLocation", artifactLocation(Path, Root)},
                      {"region", std::move(Region)}};
}

json::Array sarifFixes(const llvm::StringMap<tooling::Replacements> &Fix,
                       llvm::StringRef Root) {
  json::Array Changes;
  for (const std::string &F : sortedFixFiles(Fix)) {
    json::Array Replacements;
    for (const tooling::Replacement &R : Fix.lookup(F))
      Replacements.push_back(json::Object{
          {"deletedRegion", json::Object{{"byteOffset", R.getOffset()},
                                         {"byteLength", R.getLength()}}},
          {"insertedContent", json::Object{{"text", R.getReplacementText().str()}}}});
    Changes.push_back(json::Object{{"artifactLocation", artifactLocation(F, Root)},
                                   {"replacements", std::move(Replacements)}});
  }
  json::Array Out;
  if (!Changes.empty())
    Out.push_back(json::Object{
        {"description", json::Object{{"text", "torch-tidy's suggested fix"}}},
        {"artifactChanges", std::move(Changes)}});
  return Out;
}

const SeverityNames SarifLevels = {"error", "warning", "note"};

// Where a check is documented: the check table's page for ours, clang's
// documentation for upstream checks and compiler diagnostics.
std::string helpUri(llvm::StringRef Check, llvm::StringRef DocBase) {
  if (const CheckRow *Row = findCheck(Check))
    return DocBase.str() + Row->docPage();
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

json::Object rule(llvm::StringRef Name, llvm::StringRef DocBase) {
  const CheckRow *Row = findCheck(Name);
  std::string Summary =
      Row ? std::string(Row->Summary) : "clang-tidy check " + Name.str() + ".";
  return json::Object{
      {"id", Name.str()},
      {"name", Name.str()},
      {"shortDescription", json::Object{{"text", Summary}}},
      {"helpUri", helpUri(Name, DocBase)},
      {"defaultConfiguration", json::Object{{"level", "warning"}}}};
}

} // namespace

std::string fileUri(llvm::StringRef Path) {
  std::string P = llvm::sys::path::convert_to_slash(Path);
  if (!llvm::StringRef(P).starts_with("/"))
    P = "/" + P;
  return "file://" + percentEncode(P);
}

json::Value findingsToSarif(const std::vector<Finding> &Findings,
                            SourceFiles &Sources, llvm::StringRef Root,
                            llvm::StringRef DocBase) {
  std::set<std::string> RuleNames;
  for (const CheckRow &C : checkTable())
    RuleNames.insert(C.Name);
  for (const Finding &F : Findings)
    RuleNames.insert(F.Error.DiagnosticName);
  std::map<std::string, unsigned> RuleIndex;
  json::Array Rules;
  for (const std::string &Name : RuleNames) {
    RuleIndex[Name] = Rules.size();
    Rules.push_back(rule(Name, DocBase));
  }

  json::Array Results;
  for (const Finding &F : Findings) {
    const tooling::DiagnosticMessage &M = F.Error.Message;
    json::Object Result{
        {"ruleId", F.Error.DiagnosticName},
        {"ruleIndex", RuleIndex[F.Error.DiagnosticName]},
        {"level", severityName(F, SarifLevels)},
        {"message", json::Object{{"text", M.Message}}},
        {"partialFingerprints",
         json::Object{{"torchTidyFingerprint/v1", F.Fingerprint}}}};
    if (!M.FilePath.empty())
      Result["locations"] = json::Array{json::Object{
          {"physicalLocation", physicalLocation(M.FilePath, M.FileOffset, Sources, Root)}}};
    json::Array Related;
    for (const tooling::DiagnosticMessage &N : F.Error.Notes) {
      if (N.FilePath.empty())
        continue;
      Related.push_back(json::Object{
          {"id", Related.size()},
          {"message", json::Object{{"text", N.Message}}},
          {"physicalLocation", physicalLocation(N.FilePath, N.FileOffset, Sources, Root)}});
    }
    if (!Related.empty())
      Result["relatedLocations"] = std::move(Related);
    json::Array Fixes = sarifFixes(M.Fix, Root);
    if (!Fixes.empty())
      Result["fixes"] = std::move(Fixes);
    Results.push_back(std::move(Result));
  }

  std::string RootUri = fileUri(Root);
  if (!llvm::StringRef(RootUri).ends_with("/"))
    RootUri += "/";
  json::Object Driver{{"name", "torch-tidy"},
                      {"version", TORCH_TIDY_VERSION},
                      {"semanticVersion", TORCH_TIDY_VERSION},
                      {"informationUri", DocBase.str()},
                      {"rules", std::move(Rules)}};
  return json::Object{
      {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
      {"version", "2.1.0"},
      {"runs",
       json::Array{json::Object{
           {"tool", json::Object{{"driver", std::move(Driver)}}},
           {"originalUriBaseIds",
            json::Object{{"SRCROOT", json::Object{{"uri", RootUri}}}}},
           {"columnKind", "unicodeCodePoints"},
           {"results", std::move(Results)}}}}};
}

} // namespace torch_tidy
