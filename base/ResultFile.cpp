//===--- ResultFile.cpp - a translation unit's result as JSON -------------===//

#include "base/ResultFile.h"

using namespace clang;
using namespace clang::tidy;
namespace json = llvm::json;

namespace torch_tidy {
namespace {

json::Array fixToJSON(const llvm::StringMap<tooling::Replacements> &Fix) {
  json::Array Out;
  for (const std::string &F : sortedFixFiles(Fix))
    for (const tooling::Replacement &R : Fix.lookup(F))
      Out.push_back(json::Object{{"file", R.getFilePath().str()},
                                 {"offset", R.getOffset()},
                                 {"length", R.getLength()},
                                 {"text", R.getReplacementText().str()}});
  return Out;
}

json::Object messageToJSON(const tooling::DiagnosticMessage &M) {
  json::Array Ranges;
  for (const tooling::FileByteRange &R : M.Ranges)
    Ranges.push_back(json::Object{
        {"file", R.FilePath}, {"offset", R.FileOffset}, {"length", R.Length}});
  return json::Object{{"message", M.Message},
                      {"file", M.FilePath},
                      {"offset", M.FileOffset},
                      {"ranges", std::move(Ranges)},
                      {"fixes", fixToJSON(M.Fix)}};
}

/// The file, offset and length of a range or a fix; false when one is
/// missing or negative.
bool spanFromJSON(const json::Object *O, tooling::FileByteRange &Span) {
  if (!O)
    return false;
  auto File = O->getString("file");
  auto Offset = O->getInteger("offset");
  auto Length = O->getInteger("length");
  if (!File || !Offset || !Length || *Offset < 0 || *Length < 0)
    return false;
  Span.FilePath = File->str();
  Span.FileOffset = static_cast<unsigned>(*Offset);
  Span.Length = static_cast<unsigned>(*Length);
  return true;
}

bool messageFromJSON(const json::Value &V, tooling::DiagnosticMessage &M,
                     std::string &Error) {
  const json::Object *O = V.getAsObject();
  if (!O) {
    Error = "a message is not an object";
    return false;
  }
  auto Msg = O->getString("message");
  auto File = O->getString("file");
  auto Offset = O->getInteger("offset");
  const json::Array *Ranges = O->getArray("ranges");
  const json::Array *Fixes = O->getArray("fixes");
  if (!Msg || !File || !Offset || !Ranges || !Fixes || *Offset < 0) {
    Error = "a message lacks message, file, offset, ranges or fixes";
    return false;
  }
  M.Message = Msg->str();
  M.FilePath = File->str();
  M.FileOffset = static_cast<unsigned>(*Offset);
  for (const json::Value &RV : *Ranges) {
    tooling::FileByteRange BR;
    if (!spanFromJSON(RV.getAsObject(), BR)) {
      Error = "a range lacks file, offset or length";
      return false;
    }
    M.Ranges.push_back(BR);
  }
  for (const json::Value &FV : *Fixes) {
    const json::Object *F = FV.getAsObject();
    tooling::FileByteRange Span;
    auto Text = F ? F->getString("text") : std::nullopt;
    if (!spanFromJSON(F, Span) || !Text) {
      Error = "a fix lacks file, offset, length or text";
      return false;
    }
    tooling::Replacement R(Span.FilePath, Span.FileOffset, Span.Length, *Text);
    if (llvm::Error E = M.Fix[R.getFilePath()].add(R)) {
      Error = "overlapping replacements in one fix: " +
              llvm::toString(std::move(E));
      return false;
    }
  }
  return true;
}

const char *levelName(tooling::Diagnostic::Level L) {
  switch (L) {
  case tooling::Diagnostic::Remark:
    return "remark";
  case tooling::Diagnostic::Warning:
    return "warning";
  case tooling::Diagnostic::Error:
    return "error";
  }
  return "warning";
}

} // namespace

json::Value toJSON(const TUResult &R) {
  json::Array Diags;
  for (const ClangTidyError &E : R.Errors) {
    json::Array Notes;
    for (const tooling::DiagnosticMessage &N : E.Notes)
      Notes.push_back(messageToJSON(N));
    json::Array Aliases;
    for (const std::string &A : E.EnabledDiagnosticAliases)
      Aliases.push_back(A);
    Diags.push_back(json::Object{{"check", E.DiagnosticName},
                                 {"level", levelName(E.DiagLevel)},
                                 {"buildDirectory", E.BuildDirectory},
                                 {"warningAsError", E.IsWarningAsError},
                                 {"aliases", std::move(Aliases)},
                                 {"main", messageToJSON(E.Message)},
                                 {"notes", std::move(Notes)}});
  }
  json::Object Hashes;
  for (const auto &H : R.ContentHashes)
    Hashes[H.first] = H.second;
  json::Object Result{
      {"version", 1},
      {"file", R.MainFile},
      {"diagnostics", std::move(Diags)},
      {"hashes", std::move(Hashes)},
      {"stats", json::Object{{"displayed", R.Stats.ErrorsDisplayed},
                             {"checkFilter", R.Stats.ErrorsIgnoredCheckFilter},
                             {"nolint", R.Stats.ErrorsIgnoredNOLINT},
                             {"nonUserCode", R.Stats.ErrorsIgnoredNonUserCode},
                             {"lineFilter", R.Stats.ErrorsIgnoredLineFilter}}}};
  if (!R.Summaries.empty())
    Result["summaries"] = R.Summaries;
  if (!R.SummaryQueries.empty() || !R.SummaryAnswers.empty()) {
    json::Array Queries;
    for (const std::string &Q : R.SummaryQueries)
      Queries.push_back(Q);
    Result["summaryQueries"] = std::move(Queries);
    Result["summaryAnswers"] = R.SummaryAnswers;
  }
  return Result;
}

bool fromJSON(const json::Value &V, TUResult &R, std::string &Error) {
  const json::Object *O = V.getAsObject();
  if (!O || O->getInteger("version") != 1) {
    Error = "not a torch-tidy result (version 1)";
    return false;
  }
  auto File = O->getString("file");
  const json::Array *Diags = O->getArray("diagnostics");
  const json::Object *Hashes = O->getObject("hashes");
  const json::Object *Stats = O->getObject("stats");
  if (!File || !Diags || !Hashes || !Stats) {
    Error = "a result lacks file, diagnostics, hashes or stats";
    return false;
  }
  R.MainFile = File->str();
  for (const json::Value &DV : *Diags) {
    const json::Object *D = DV.getAsObject();
    auto Check = D ? D->getString("check") : std::nullopt;
    auto Level = D ? D->getString("level") : std::nullopt;
    auto Build = D ? D->getString("buildDirectory") : std::nullopt;
    auto WAE = D ? D->getBoolean("warningAsError") : std::nullopt;
    const json::Value *Main = D ? D->get("main") : nullptr;
    const json::Array *Notes = D ? D->getArray("notes") : nullptr;
    const json::Array *Aliases = D ? D->getArray("aliases") : nullptr;
    if (!Check || !Level || !Build || !WAE || !Main || !Notes || !Aliases) {
      Error = "a diagnostic lacks a field";
      return false;
    }
    tooling::Diagnostic::Level L =
        *Level == "error"    ? tooling::Diagnostic::Error
        : *Level == "remark" ? tooling::Diagnostic::Remark
                             : tooling::Diagnostic::Warning;
    ClangTidyError E(*Check, L, *Build, *WAE);
    if (!messageFromJSON(*Main, E.Message, Error))
      return false;
    for (const json::Value &N : *Notes) {
      tooling::DiagnosticMessage M;
      if (!messageFromJSON(N, M, Error))
        return false;
      E.Notes.push_back(std::move(M));
    }
    for (const json::Value &A : *Aliases)
      if (auto S = A.getAsString())
        E.EnabledDiagnosticAliases.push_back(S->str());
    R.Errors.push_back(std::move(E));
  }
  for (const auto &H : *Hashes)
    if (auto S = H.second.getAsString())
      R.ContentHashes[H.first.str()] = S->str();
  auto Get = [&](const char *K) {
    return static_cast<unsigned>(Stats->getInteger(K).value_or(0));
  };
  R.Stats.ErrorsDisplayed = Get("displayed");
  R.Stats.ErrorsIgnoredCheckFilter = Get("checkFilter");
  R.Stats.ErrorsIgnoredNOLINT = Get("nolint");
  R.Stats.ErrorsIgnoredNonUserCode = Get("nonUserCode");
  R.Stats.ErrorsIgnoredLineFilter = Get("lineFilter");
  if (auto S = O->getString("summaries"))
    R.Summaries = S->str();
  if (const json::Array *Queries = O->getArray("summaryQueries"))
    for (const json::Value &Q : *Queries)
      if (auto S = Q.getAsString())
        R.SummaryQueries.insert(S->str());
  if (auto S = O->getString("summaryAnswers"))
    R.SummaryAnswers = S->str();
  return true;
}

} // namespace torch_tidy
