//===--- JudgeSarif.cpp - verdicts marked in a SARIF log ------------------===//
#include "runtime_verify/command/JudgeSarif.h"

#include "base/AtomicWrite.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

namespace torch_tidy::verify {

namespace json = llvm::json;

/// A URI's path with its %XX escapes decoded.
static std::string decodeUri(llvm::StringRef Uri) {
  std::string Out;
  for (size_t I = 0; I < Uri.size(); ++I) {
    unsigned Byte = 0;
    if (Uri[I] == '%' && I + 2 < Uri.size() && !Uri.substr(I + 1, 2).getAsInteger(16, Byte)) {
      Out += static_cast<char>(Byte);
      I += 2;
    } else {
      Out += Uri[I];
    }
  }
  return Out;
}

/// Whether SARIF result \p R is the finding of \p F.
static bool isResultOf(const json::Object &R, const FindingResult &F) {
  if (R.getString("ruleId") != llvm::StringRef(F.Check))
    return false;
  const json::Array *Locations = R.getArray("locations");
  const json::Object *First =
      Locations && !Locations->empty() ? Locations->front().getAsObject() : nullptr;
  const json::Object *Physical = First ? First->getObject("physicalLocation") : nullptr;
  const json::Object *Artifact = Physical ? Physical->getObject("artifactLocation") : nullptr;
  const json::Object *Region = Physical ? Physical->getObject("region") : nullptr;
  std::optional<llvm::StringRef> Uri = Artifact ? Artifact->getString("uri") : std::nullopt;
  if (!Uri || !Region || Region->getInteger("startLine") != static_cast<int64_t>(F.Line))
    return false;
  std::string Path = decodeUri(*Uri);
  llvm::StringRef P(Path), File(F.File);
  return P == File || (P.ends_with(File) && P[P.size() - File.size() - 1] == '/');
}

static json::Object runtimeProperty(const FindingResult &F) {
  json::Object O{{"verdict", verdictOf(F)}, {"original", variantJson(F.Original)}};
  if (!F.Error.empty())
    O["error"] = F.Error;
  if (F.HasFix)
    O["fixed"] = variantJson(F.Fixed);
  return O;
}

static void mark(json::Object &Result, const FindingResult &F) {
  json::Object *Properties = Result.getObject("properties");
  if (!Properties) {
    Result["properties"] = json::Object();
    Properties = Result.getObject("properties");
  }
  (*Properties)["torchTidyRuntime"] = runtimeProperty(F);
  if (verdictOf(F) != "confirmed")
    return;
  json::Array *Tags = Properties->getArray("tags");
  if (!Tags) {
    (*Properties)["tags"] = json::Array();
    Tags = Properties->getArray("tags");
  }
  Tags->push_back("confirmed-at-runtime");
}

llvm::Error markSarif(const std::string &In, const std::string &Out,
                      const std::vector<FindingResult> &Results, unsigned &Unmatched) {
  auto Buffer = llvm::MemoryBuffer::getFile(In);
  if (!Buffer)
    return llvm::createStringError(Buffer.getError(), "cannot read the SARIF log " + In + ": " +
                                                          Buffer.getError().message());
  llvm::Expected<json::Value> Log = json::parse((*Buffer)->getBuffer());
  if (!Log)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   In + " is not a SARIF log: " + llvm::toString(Log.takeError()));
  json::Object *Top = Log->getAsObject();
  json::Array *Runs = Top ? Top->getArray("runs") : nullptr;
  if (!Runs)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   In + " is not a SARIF log (it has no runs)");
  Unmatched = 0;
  for (const FindingResult &F : Results) {
    bool Found = false;
    for (json::Value &Run : *Runs) {
      json::Object *RunObject = Run.getAsObject();
      json::Array *RunResults = RunObject ? RunObject->getArray("results") : nullptr;
      if (!RunResults)
        continue;
      for (json::Value &R : *RunResults)
        if (json::Object *RO = R.getAsObject(); RO && !Found && isResultOf(*RO, F)) {
          mark(*RO, F);
          Found = true;
        }
    }
    Unmatched += !Found;
  }
  std::string Error;
  if (!writeAtomically(Out, llvm::formatv("{0:2}", json::Value(std::move(*Log))).str() + "\n",
                       Error))
    return llvm::createStringError(llvm::inconvertibleErrorCode(), Error);
  return llvm::Error::success();
}

} // namespace torch_tidy::verify
