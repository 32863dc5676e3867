//===--- Merge.cpp - torch-tidy merge: combine per-shard outputs ----------===//
//
//   torch-tidy merge [--format=json|sarif|fixes|baseline] -o OUT IN...
//
// Combines the JSON diagnostics, SARIF logs, exported fixes or baselines of
// the shards of one run into one file; a finding reported by two shards (a
// shared header) is kept once.
//
//===----------------------------------------------------------------------===//

#include "driver/commands/Merge.h"

#include "base/AtomicWrite.h"
#include "driver/ExitCodes.h"

#include "clang/Tooling/DiagnosticsYaml.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/YAMLTraits.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <set>

namespace json = llvm::json;

namespace torch_tidy {
namespace {

const char Usage[] = "usage: torch-tidy merge "
                     "[--format=json|sarif|fixes|baseline] -o OUT INPUT...";

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

/// The inputs of a merge: their names and contents, in order.
struct Inputs {
  std::vector<std::string> Names;
  std::vector<std::unique_ptr<llvm::MemoryBuffer>> Buffers;
  std::vector<json::Value> Docs; ///< parsed, for the JSON formats
};

std::string pretty(json::Value V) {
  return llvm::formatv("{0:2}", V).str() + "\n";
}

bool mergeFixes(const Inputs &In, std::string &Out, std::string &Error) {
  clang::tooling::TranslationUnitDiagnostics All;
  std::set<std::tuple<std::string, std::string, unsigned, std::string>> Seen;
  for (size_t I = 0; I < In.Buffers.size(); ++I) {
    clang::tooling::TranslationUnitDiagnostics TUD;
    llvm::yaml::Input YIn(In.Buffers[I]->getBuffer());
    YIn >> TUD;
    if (YIn.error()) {
      Error = "'" + In.Names[I] + "' is not exported fixes";
      return false;
    }
    for (auto &D : TUD.Diagnostics)
      if (Seen.insert({D.DiagnosticName, D.Message.FilePath,
                       D.Message.FileOffset, D.Message.Message})
              .second)
        All.Diagnostics.push_back(D);
  }
  llvm::raw_string_ostream OS(Out);
  llvm::yaml::Output YOut(OS);
  YOut << All;
  OS.flush();
  return true;
}

/// The identity of a JSON diagnostic: check, place and message.
json::Value diagnosticKey(const json::Value &D) {
  const json::Object *O = D.getAsObject();
  if (!O)
    return D;
  json::Array Key;
  for (const char *Field : {"check", "file", "line", "column", "message"})
    Key.push_back(O->get(Field) ? *O->get(Field) : nullptr);
  return json::Value(std::move(Key));
}

bool mergeJson(const Inputs &In, std::string &Out, std::string &Error) {
  json::Array All;
  std::set<std::string> Seen;
  for (size_t I = 0; I < In.Docs.size(); ++I) {
    const json::Array *A = In.Docs[I].getAsArray();
    if (!A) {
      Error = "'" + In.Names[I] + "' is not a JSON array of diagnostics";
      return false;
    }
    for (const json::Value &D : *A)
      if (Seen.insert(keyOf(diagnosticKey(D))).second)
        All.push_back(D);
  }
  Out = pretty(json::Value(std::move(All)));
  return true;
}

bool mergeBaselines(const Inputs &In, std::string &Out, std::string &Error) {
  json::Array All;
  std::set<std::string> Seen;
  for (size_t I = 0; I < In.Docs.size(); ++I) {
    const json::Object *O = In.Docs[I].getAsObject();
    const json::Array *F = O ? O->getArray("findings") : nullptr;
    if (!F || O->getInteger("version") != 1) {
      Error = "'" + In.Names[I] + "' is not a torch-tidy baseline";
      return false;
    }
    for (const json::Value &V : *F) {
      const json::Object *FO = V.getAsObject();
      auto FP = FO ? FO->getString("fingerprint") : std::nullopt;
      if (!FP) {
        Error = "'" + In.Names[I] + "' has a finding without fingerprint";
        return false;
      }
      if (Seen.insert(FP->str()).second)
        All.push_back(V);
    }
  }
  Out = pretty(json::Object{
      {"version", 1}, {"tool", "torch-tidy"}, {"findings", std::move(All)}});
  return true;
}

/// SARIF logs merged into the first one's run: every rule once, every
/// result once (by rule and fingerprints), rule indices renumbered.
class SarifMerger {
public:
  bool add(json::Object &Run) {
    if (!First)
      First = &Run;
    json::Object *Tool = Run.getObject("tool");
    json::Object *Driver = Tool ? Tool->getObject("driver") : nullptr;
    json::Array *RunRules = Driver ? Driver->getArray("rules") : nullptr;
    for (json::Value &R : RunRules ? *RunRules : json::Array()) {
      auto Id =
          R.getAsObject() ? R.getAsObject()->getString("id") : std::nullopt;
      if (Id && !RuleIndex.count(Id->str())) {
        RuleIndex[Id->str()] = Rules.size();
        Rules.push_back(R);
      }
    }
    json::Array *RunResults = Run.getArray("results");
    for (json::Value &R : RunResults ? *RunResults : json::Array())
      addResult(R);
    return true;
  }

  /// Puts the merged rules and results into the first run.
  void finish() {
    (*First)["results"] = std::move(Results);
    if (json::Object *Tool = First->getObject("tool"))
      if (json::Object *Driver = Tool->getObject("driver"))
        (*Driver)["rules"] = std::move(Rules);
  }

private:
  void addResult(json::Value &R) {
    json::Object *RO = R.getAsObject();
    if (!RO)
      return;
    auto Rule = RO->getString("ruleId");
    json::Object *FPs = RO->getObject("partialFingerprints");
    std::string Key = keyOf(R);
    if (Rule && FPs)
      Key = Rule->str() + "\n" + keyOf(json::Value(json::Object(*FPs)));
    if (!Seen.insert(Key).second)
      return;
    if (Rule && RuleIndex.count(Rule->str()))
      (*RO)["ruleIndex"] = RuleIndex[Rule->str()];
    Results.push_back(R);
  }

  json::Object *First = nullptr;
  json::Array Rules, Results;
  std::map<std::string, unsigned> RuleIndex;
  std::set<std::string> Seen;
};

bool mergeSarif(Inputs &In, std::string &Out, std::string &Error) {
  SarifMerger Merger;
  for (size_t I = 0; I < In.Docs.size(); ++I) {
    json::Object *Log = In.Docs[I].getAsObject();
    json::Array *Runs = Log ? Log->getArray("runs") : nullptr;
    if (!Runs || Runs->size() != 1 || !(*Runs)[0].getAsObject()) {
      Error = "'" + In.Names[I] + "' is not a SARIF log with one run";
      return false;
    }
    Merger.add(*(*Runs)[0].getAsObject());
  }
  Merger.finish();
  Out = pretty(std::move(In.Docs.front()));
  return true;
}

} // namespace

int mergeMain(int Argc, const char **Argv) {
  std::string Format, Out;
  Inputs In;
  for (int I = 1; I < Argc; ++I) {
    llvm::StringRef A = Argv[I];
    if (A.consume_front("--format="))
      Format = A.str();
    else if (A == "-o" && I + 1 < Argc)
      Out = Argv[++I];
    else if (A.consume_front("--output="))
      Out = A.str();
    else if (A == "--help" || A == "-h") {
      llvm::outs() << Usage << "\n";
      return ExitClean;
    } else if (A.starts_with("-"))
      return fail("unknown option '" + A.str() + "'");
    else
      In.Names.push_back(A.str());
  }
  if (Out.empty() || In.Names.empty())
    return fail(Usage);

  for (const std::string &Name : In.Names) {
    auto B = llvm::MemoryBuffer::getFile(Name, /*IsText=*/true);
    if (!B)
      return fail("cannot read '" + Name + "': " + B.getError().message());
    if (Format.empty())
      Format = guessFormat((*B)->getBuffer());
    In.Buffers.push_back(std::move(*B));
  }
  if (Format != "json" && Format != "sarif" && Format != "fixes" &&
      Format != "baseline")
    return fail("cannot tell the format of '" + In.Names.front() +
                "'; give --format=json|sarif|fixes|baseline");
  if (Format != "fixes")
    for (size_t I = 0; I < In.Buffers.size(); ++I) {
      llvm::Expected<json::Value> V = json::parse(In.Buffers[I]->getBuffer());
      if (!V)
        return fail("'" + In.Names[I] +
                    "' is not JSON: " + llvm::toString(V.takeError()));
      In.Docs.push_back(std::move(*V));
    }

  std::string Text, Error;
  bool Ok = Format == "fixes"      ? mergeFixes(In, Text, Error)
            : Format == "json"     ? mergeJson(In, Text, Error)
            : Format == "baseline" ? mergeBaselines(In, Text, Error)
                                   : mergeSarif(In, Text, Error);
  if (!Ok || !writeAtomically(Out, Text, Error))
    return fail(Error);
  return ExitClean;
}

} // namespace torch_tidy
