//===--- Baseline.cpp - findings accepted earlier -------------------------===//

#include "driver/report/Baseline.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

namespace json = llvm::json;

namespace torch_tidy {

bool parseBaseline(llvm::StringRef Text, Baseline &Out, std::string &Error) {
  llvm::Expected<json::Value> V = json::parse(Text);
  if (!V) {
    Error = "not JSON: " + llvm::toString(V.takeError());
    return false;
  }
  const json::Object *O = V->getAsObject();
  const json::Array *Findings = O ? O->getArray("findings") : nullptr;
  if (!O || O->getInteger("version") != 1 || !Findings) {
    Error = "not a torch-tidy baseline (version 1 with findings)";
    return false;
  }
  for (const json::Value &F : *Findings) {
    const json::Object *FO = F.getAsObject();
    auto FP = FO ? FO->getString("fingerprint") : std::nullopt;
    if (!FP || FP->empty()) {
      Error = "a baseline finding has no fingerprint";
      return false;
    }
    ++Out.Accepted[FP->str()];
  }
  return true;
}

bool readBaseline(llvm::StringRef Path, Baseline &Out, std::string &Error) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buffer) {
    Error = "cannot read baseline '" + Path.str() +
            "': " + Buffer.getError().message();
    return false;
  }
  if (!parseBaseline((*Buffer)->getBuffer(), Out, Error)) {
    Error = "baseline '" + Path.str() + "': " + Error;
    return false;
  }
  return true;
}

std::string baselineText(const std::vector<Finding> &Findings,
                         SourceFiles &Sources) {
  json::Array Items;
  for (const Finding &F : Findings) {
    const auto &M = F.Error.Message;
    Items.push_back(json::Object{
        {"fingerprint", F.Fingerprint},
        {"check", F.Error.DiagnosticName},
        {"file", F.RelativePath},
        {"line", Sources.position(M.FilePath, M.FileOffset).Line},
        {"message", M.Message}});
  }
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  OS << llvm::formatv("{0:2}", json::Value(json::Object{
                                   {"version", 1},
                                   {"tool", "torch-tidy"},
                                   {"findings", std::move(Items)}}));
  OS << "\n";
  return Text;
}

unsigned applyBaseline(std::vector<Finding> &Findings, const Baseline &B) {
  std::map<std::string, unsigned> Left = B.Accepted;
  unsigned Removed = 0;
  std::vector<Finding> Kept;
  for (Finding &F : Findings) {
    auto It = Left.find(F.Fingerprint);
    if (It != Left.end() && It->second > 0) {
      --It->second;
      ++Removed;
      continue;
    }
    Kept.push_back(std::move(F));
  }
  Findings = std::move(Kept);
  return Removed;
}

} // namespace torch_tidy
