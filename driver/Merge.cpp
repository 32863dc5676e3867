//===--- Merge.cpp - torch-tidy merge: combine per-shard outputs ----------===//
//
//   torch-tidy merge [--format=json|sarif|fixes|baseline] -o OUT IN...
//
// Combines the JSON diagnostics, SARIF logs, exported fixes or baselines of
// the shards of one run into one file; a finding reported by two shards (a
// shared header) is kept once.
//
//===----------------------------------------------------------------------===//

#include "driver/Merge.h"
#include "driver/Run.h"
#include "base/AtomicWrite.h"

#include "clang/Tooling/DiagnosticsYaml.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/YAMLTraits.h"
#include "llvm/Support/raw_ostream.h"

#include <set>

namespace json = llvm::json;

namespace torch_tidy {
namespace {

int fail(const std::string &Message) {
  llvm::errs() << "torch-tidy merge: error: " << Message << "\n";
  return ExitToolFailure;
}

std::string keyOf(const json::Value &V) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << V;
  return S;
}

std::string guessFormat(llvm::StringRef Text) {
  llvm::StringRef T = Text.ltrim();
  if (T.starts_with("["))
    return "json";
  if (T.starts_with("{"))
    return T.contains("\"runs\"") ? "sarif" : "baseline";
  if (T.starts_with("---") || T.contains("MainSourceFile"))
    return "fixes";
  return "";
}

} // namespace

int mergeMain(int Argc, const char **Argv) {
  std::string Format, Out;
  std::vector<std::string> Inputs;
  for (int I = 1; I < Argc; ++I) {
    llvm::StringRef A = Argv[I];
    if (A.consume_front("--format="))
      Format = A.str();
    else if (A == "-o" && I + 1 < Argc)
      Out = Argv[++I];
    else if (A.consume_front("--output="))
      Out = A.str();
    else if (A == "--help" || A == "-h") {
      llvm::outs() << "usage: torch-tidy merge [--format=json|sarif|fixes|"
                      "baseline] -o OUT INPUT...\n";
      return ExitClean;
    } else if (A.starts_with("-"))
      return fail("unknown option '" + A.str() + "'");
    else
      Inputs.push_back(A.str());
  }
  if (Out.empty() || Inputs.empty())
    return fail("usage: torch-tidy merge [--format=json|sarif|fixes|baseline] "
                "-o OUT INPUT...");

  std::vector<std::unique_ptr<llvm::MemoryBuffer>> Buffers;
  for (const std::string &In : Inputs) {
    auto B = llvm::MemoryBuffer::getFile(In, /*IsText=*/true);
    if (!B)
      return fail("cannot read '" + In + "': " + B.getError().message());
    if (Format.empty())
      Format = guessFormat((*B)->getBuffer());
    Buffers.push_back(std::move(*B));
  }
  if (Format != "json" && Format != "sarif" && Format != "fixes" &&
      Format != "baseline")
    return fail("cannot tell the format of '" + Inputs.front() +
                "'; give --format=json|sarif|fixes|baseline");

  std::string Text, Error;
  llvm::raw_string_ostream OS(Text);
  if (Format == "fixes") {
    clang::tooling::TranslationUnitDiagnostics All;
    std::set<std::tuple<std::string, std::string, unsigned, std::string>> Seen;
    for (size_t I = 0; I < Buffers.size(); ++I) {
      clang::tooling::TranslationUnitDiagnostics TUD;
      llvm::yaml::Input YIn(Buffers[I]->getBuffer());
      YIn >> TUD;
      if (YIn.error())
        return fail("'" + Inputs[I] + "' is not exported fixes");
      for (auto &D : TUD.Diagnostics)
        if (Seen.insert({D.DiagnosticName, D.Message.FilePath,
                         D.Message.FileOffset, D.Message.Message})
                .second)
          All.Diagnostics.push_back(D);
    }
    llvm::yaml::Output YOut(OS);
    YOut << All;
  } else {
    std::vector<json::Value> Docs;
    for (size_t I = 0; I < Buffers.size(); ++I) {
      llvm::Expected<json::Value> V = json::parse(Buffers[I]->getBuffer());
      if (!V)
        return fail("'" + Inputs[I] + "' is not JSON: " + llvm::toString(V.takeError()));
      Docs.push_back(std::move(*V));
    }
    if (Format == "json") {
      json::Array All;
      std::set<std::string> Seen;
      for (size_t I = 0; I < Docs.size(); ++I) {
        const json::Array *A = Docs[I].getAsArray();
        if (!A)
          return fail("'" + Inputs[I] + "' is not a JSON array of diagnostics");
        for (const json::Value &D : *A) {
          const json::Object *O = D.getAsObject();
          json::Value Key = O ? json::Value(json::Array{
                                    O->get("check") ? *O->get("check") : nullptr,
                                    O->get("file") ? *O->get("file") : nullptr,
                                    O->get("line") ? *O->get("line") : nullptr,
                                    O->get("column") ? *O->get("column") : nullptr,
                                    O->get("message") ? *O->get("message") : nullptr})
                              : D;
          if (Seen.insert(keyOf(Key)).second)
            All.push_back(D);
        }
      }
      OS << llvm::formatv("{0:2}", json::Value(std::move(All))) << "\n";
    } else if (Format == "baseline") {
      json::Array All;
      std::set<std::string> Seen;
      for (size_t I = 0; I < Docs.size(); ++I) {
        const json::Object *O = Docs[I].getAsObject();
        const json::Array *F = O ? O->getArray("findings") : nullptr;
        if (!F || O->getInteger("version") != 1)
          return fail("'" + Inputs[I] + "' is not a torch-tidy baseline");
        for (const json::Value &V : *F) {
          const json::Object *FO = V.getAsObject();
          auto FP = FO ? FO->getString("fingerprint") : std::nullopt;
          if (!FP)
            return fail("'" + Inputs[I] + "' has a finding without fingerprint");
          if (Seen.insert(FP->str()).second)
            All.push_back(V);
        }
      }
      OS << llvm::formatv("{0:2}", json::Value(json::Object{
                                       {"version", 1},
                                       {"tool", "torch-tidy"},
                                       {"findings", std::move(All)}}))
         << "\n";
    } else { // sarif
      json::Object *First = nullptr;
      json::Array Rules, Results;
      std::map<std::string, unsigned> RuleIndex;
      std::set<std::string> Seen;
      for (size_t I = 0; I < Docs.size(); ++I) {
        json::Object *Log = Docs[I].getAsObject();
        json::Array *Runs = Log ? Log->getArray("runs") : nullptr;
        if (!Runs || Runs->size() != 1 || !(*Runs)[0].getAsObject())
          return fail("'" + Inputs[I] + "' is not a SARIF log with one run");
        json::Object &Run = *(*Runs)[0].getAsObject();
        if (!First)
          First = &Run;
        json::Object *Tool = Run.getObject("tool");
        json::Object *Driver = Tool ? Tool->getObject("driver") : nullptr;
        json::Array *RunRules = Driver ? Driver->getArray("rules") : nullptr;
        std::vector<std::string> Ids;
        for (json::Value &R : RunRules ? *RunRules : json::Array()) {
          auto Id = R.getAsObject() ? R.getAsObject()->getString("id") : std::nullopt;
          Ids.push_back(Id ? Id->str() : "");
          if (Id && !RuleIndex.count(Id->str())) {
            RuleIndex[Id->str()] = Rules.size();
            Rules.push_back(R);
          }
        }
        json::Array *RunResults = Run.getArray("results");
        for (json::Value &R : RunResults ? *RunResults : json::Array()) {
          json::Object *RO = R.getAsObject();
          if (!RO)
            continue;
          auto Rule = RO->getString("ruleId");
          json::Object *FPs = RO->getObject("partialFingerprints");
          std::string Key = keyOf(R);
          if (Rule && FPs)
            Key = Rule->str() + "\n" + keyOf(json::Value(json::Object(*FPs)));
          if (!Seen.insert(Key).second)
            continue;
          if (Rule && RuleIndex.count(Rule->str()))
            (*RO)["ruleIndex"] = RuleIndex[Rule->str()];
          Results.push_back(R);
        }
      }
      (*First)["results"] = std::move(Results);
      if (json::Object *Tool = First->getObject("tool"))
        if (json::Object *Driver = Tool->getObject("driver"))
          (*Driver)["rules"] = std::move(Rules);
      OS << llvm::formatv("{0:2}", Docs.front()) << "\n";
    }
  }
  OS.flush();
  if (!writeAtomically(Out, Text, Error))
    return fail(Error);
  return ExitClean;
}

} // namespace torch_tidy
