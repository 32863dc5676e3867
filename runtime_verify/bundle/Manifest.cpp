//===--- Manifest.cpp - what a verify bundle holds ------------------------===//
#include "runtime_verify/bundle/Manifest.h"
#include "runtime_verify/bundle/Layout.h"

#include "base/Paths.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <climits>

namespace torch_tidy {

/// A probe kind by its name in a manifest (found by argument-dependent
/// lookup, so in VerifyProbe's namespace).
bool fromJSON(const llvm::json::Value &E, VerifyProbe &Out, llvm::json::Path P);

namespace verify {

namespace json = llvm::json;

/// The format a bundle's manifest declares; a judge refuses any other.
static constexpr const char *Format = "torch-tidy-verify-bundle";
static constexpr int64_t Version = 1;

llvm::StringRef probeKindName(VerifyProbe Probe) {
  switch (Probe) {
  case VerifyProbe::DeclaredTarget:
    return "declared-target";
  case VerifyProbe::BackwardTensor:
    return "backward-tensor";
  case VerifyProbe::ForwardResult:
    return "forward-result";
  case VerifyProbe::None:
    break;
  }
  return "none";
}

//===--- writing ----------------------------------------------------------===//

static json::Value toJSON(const BundleProgram &P) {
  json::Array Includes;
  for (const BundleInclude &I : P.Includes)
    Includes.push_back(json::Object{{"kind", I.Kind}, {"folder", I.Folder}});
  return json::Object{{"file", P.File},
                      {"folder", P.Folder},
                      {"options", json::Array(P.Options)},
                      {"includes", std::move(Includes)}};
}

static json::Value toJSON(const BundleFinding &F) {
  json::Array Variants;
  for (const BundleVariant &V : F.Variants) {
    json::Object O{{"name", V.Name}, {"source", V.Source}};
    if (!V.Error.empty())
      O["error"] = V.Error;
    Variants.push_back(std::move(O));
  }
  json::Object O{{"id", F.Id},           {"program", F.Program},
                 {"line", F.Line},       {"check", F.Check},
                 {"probe", probeKindName(F.Probe)}, {"message", F.Message},
                 {"probe_name", F.ProbeName},       {"target", F.Target},
                 {"where", F.Where},     {"has_fix", F.HasFix},
                 {"variants", std::move(Variants)}};
  if (!F.Error.empty())
    O["error"] = F.Error;
  return O;
}

std::string BundleManifest::text() const {
  json::Array ProgramsJson, FindingsJson;
  for (const BundleProgram &P : Programs)
    ProgramsJson.push_back(toJSON(P));
  for (const BundleFinding &F : Findings)
    FindingsJson.push_back(toJSON(F));
  json::Object Root{{"format", Format},
                    {"version", Version},
                    {"settings", json::Object{{"iterations", Settings.Iterations},
                                              {"warmup", Settings.Warmup},
                                              {"timeout", Settings.Timeout},
                                              {"repeat", Settings.Repeat}}},
                    {"programs", std::move(ProgramsJson)},
                    {"findings", std::move(FindingsJson)}};
  return llvm::formatv("{0:2}", json::Value(std::move(Root))).str() + "\n";
}

//===--- reading ----------------------------------------------------------===//

/// A count (a line, an index, a setting); larger ones are clamped.
static bool mapCount(json::ObjectMapper &O, llvm::StringLiteral Prop, unsigned &Out) {
  uint64_t N = 0;
  if (!O.map(Prop, N))
    return false;
  Out = static_cast<unsigned>(std::min<uint64_t>(N, UINT_MAX));
  return true;
}

static bool fromJSON(const json::Value &E, BundleSettings &Out, json::Path P) {
  json::ObjectMapper O(E, P);
  return O && mapCount(O, "iterations", Out.Iterations) && mapCount(O, "warmup", Out.Warmup) &&
         mapCount(O, "timeout", Out.Timeout) && mapCount(O, "repeat", Out.Repeat);
}

static bool fromJSON(const json::Value &E, BundleInclude &Out, json::Path P) {
  json::ObjectMapper O(E, P);
  return O && O.map("kind", Out.Kind) && O.map("folder", Out.Folder);
}

static bool fromJSON(const json::Value &E, BundleProgram &Out, json::Path P) {
  json::ObjectMapper O(E, P);
  return O && O.map("file", Out.File) && O.map("folder", Out.Folder) &&
         O.map("options", Out.Options) && O.map("includes", Out.Includes);
}

static bool fromJSON(const json::Value &E, BundleVariant &Out, json::Path P) {
  json::ObjectMapper O(E, P);
  return O && O.map("name", Out.Name) && O.map("source", Out.Source) &&
         O.mapOptional("error", Out.Error);
}

static bool fromJSON(const json::Value &E, BundleFinding &Out, json::Path P) {
  json::ObjectMapper O(E, P);
  return O && O.map("id", Out.Id) && mapCount(O, "program", Out.Program) &&
         mapCount(O, "line", Out.Line) && O.map("check", Out.Check) && O.map("probe", Out.Probe) &&
         O.map("message", Out.Message) && O.map("probe_name", Out.ProbeName) &&
         O.map("target", Out.Target) && O.map("where", Out.Where) &&
         O.mapOptional("error", Out.Error) && O.map("has_fix", Out.HasFix) &&
         O.map("variants", Out.Variants);
}

/// What the schema cannot say: programs exist, names are safe as paths.
static llvm::Error checkConsistent(const BundleManifest &M) {
  auto Bad = [](const std::string &What) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), What);
  };
  auto SafeName = [](llvm::StringRef Name) {
    return !Name.empty() && Name.find_first_of("/\\ \t\n") == llvm::StringRef::npos &&
           Name != "." && Name != "..";
  };
  for (const BundleFinding &F : M.Findings) {
    if (F.Program >= M.Programs.size())
      return Bad(F.Id + " names program " + std::to_string(F.Program) + ", which is not there");
    if (!SafeName(F.Id))
      return Bad("'" + F.Id + "' is not a finding id");
    for (const BundleVariant &V : F.Variants)
      if (!SafeName(V.Name))
        return Bad(F.Id + " has a variant named '" + V.Name + "'");
  }
  return llvm::Error::success();
}

llvm::Expected<BundleManifest> parseManifest(llvm::StringRef Text) {
  llvm::Expected<json::Value> Doc = json::parse(Text);
  if (!Doc)
    return Doc.takeError();
  const json::Object *Top = Doc->getAsObject();
  if (!Top || Top->getString("format") != llvm::StringRef(Format))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "it is not a torch-tidy verify bundle's manifest");
  if (Top->getInteger("version") != Version)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "it is a bundle of another version of torch-tidy (version " +
                                       std::to_string(Top->getInteger("version").value_or(0)) +
                                       ", this one reads " + std::to_string(Version) + ")");
  BundleManifest M;
  json::Path::Root Root("manifest");
  json::ObjectMapper O(*Doc, Root);
  if (!(O.map("settings", M.Settings) && O.map("programs", M.Programs) &&
        O.map("findings", M.Findings)))
    return Root.getError();
  if (llvm::Error E = checkConsistent(M))
    return std::move(E);
  return M;
}

llvm::Expected<BundleManifest> readManifest(const std::string &Dir) {
  std::string Path = joinPath(Dir, layout::Manifest);
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return llvm::createStringError(Buffer.getError(), "'" + Dir +
                                                          "' is not a verify bundle: cannot read " +
                                                          Path + ": " + Buffer.getError().message());
  llvm::Expected<BundleManifest> M = parseManifest((*Buffer)->getBuffer());
  if (!M)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "cannot read the bundle's manifest " + Path + ": " +
                                       llvm::toString(M.takeError()));
  return M;
}

} // namespace verify

bool fromJSON(const llvm::json::Value &E, VerifyProbe &Out, llvm::json::Path P) {
  std::optional<llvm::StringRef> S = E.getAsString();
  for (VerifyProbe Kind : {VerifyProbe::DeclaredTarget, VerifyProbe::BackwardTensor,
                           VerifyProbe::ForwardResult})
    if (S && *S == verify::probeKindName(Kind)) {
      Out = Kind;
      return true;
    }
  P.report("expected a probe kind (declared-target, backward-tensor or forward-result)");
  return false;
}

} // namespace torch_tidy
