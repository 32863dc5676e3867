//===--- Options.cpp - torch-tidy's command line --------------------------===//

#include "driver/Options.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/raw_ostream.h"

namespace torch_tidy {
namespace {

// clang-tidy flags that take a value and shape the check run.
const char *const ValueFlags[] = {
    "checks", "warnings-as-errors", "header-filter", "exclude-header-filter",
    "format-style", "config", "config-file", "line-filter", "export-fixes",
    "p", "extra-arg", "extra-arg-before", "use-color", "system-headers"};

// clang-tidy flags that only print something, or that the engine leaves to
// clang-tidy's own main.
const char *const HandOverFlags[] = {
    "list-checks", "explain-config", "dump-config", "verify-config", "help",
    "help-hidden", "help-list", "help-list-hidden", "version", "load",
    "vfsoverlay", "enable-check-profile", "store-check-profile",
    "allow-enabling-analyzer-alpha-checkers", "enable-module-headers-parsing",
    "print-all-options", "print-options", "version-short"};

bool isOneOf(llvm::StringRef Name, llvm::ArrayRef<const char *> Set) {
  for (const char *S : Set)
    if (Name == S)
      return true;
  return false;
}

std::optional<bool> parseBool(llvm::StringRef V) {
  return llvm::StringSwitch<std::optional<bool>>(V.lower())
      .Cases("", "true", "1", "yes", true)
      .Cases("false", "0", "no", false)
      .Default(std::nullopt);
}

bool parseUnsigned(llvm::StringRef V, unsigned &Out) {
  return !V.getAsInteger(10, Out);
}

} // namespace

bool parseCommandLine(llvm::ArrayRef<const char *> Args, DriverOptions &O,
                      std::string &Error) {
  for (size_t I = 0; I < Args.size(); ++I) {
    llvm::StringRef Arg = Args[I];
    if (Arg == "--") {
      O.HasFixedFlags = true;
      for (++I; I < Args.size(); ++I)
        O.FixedFlags.push_back(Args[I]);
      break;
    }
    if (!Arg.starts_with("-") || Arg == "-") {
      O.Files.push_back(Arg.str());
      continue;
    }
    llvm::StringRef Flag = Arg.drop_front(Arg.starts_with("--") ? 2 : 1);
    llvm::StringRef Name = Flag, Value;
    bool HasValue = false;
    if (size_t Eq = Flag.find('='); Eq != llvm::StringRef::npos) {
      Name = Flag.take_front(Eq);
      Value = Flag.drop_front(Eq + 1);
      HasValue = true;
    }
    // -j N, -jN, --jobs=N
    if (Name == "jobs" || Name == "j" ||
        (Name.starts_with("j") && Name.size() > 1 &&
         llvm::all_of(Name.drop_front(), [](char C) { return llvm::isDigit(C); }))) {
      O.ProjectFlag = "-j";
      llvm::StringRef V = Value;
      if (Name.size() > 1 && Name != "jobs")
        V = Name.drop_front();
      else if (!HasValue) {
        if (I + 1 >= Args.size()) {
          Error = "-j needs a number of jobs";
          return false;
        }
        V = Args[++I];
      }
      if (!parseUnsigned(V, O.Jobs)) {
        Error = std::string("-j: '" + V.str() + "' is not a number of jobs");
        return false;
      }
      continue;
    }

    auto needValue = [&](llvm::StringRef &V) -> bool {
      if (HasValue) {
        V = Value;
        return true;
      }
      if (I + 1 >= Args.size()) {
        Error = std::string("--" + Name.str() + " needs a value");
        return false;
      }
      V = Args[++I];
      return true;
    };
    auto boolFlag = [&](bool &Out) -> bool {
      std::optional<bool> B = parseBool(Value);
      if (!B) {
        Error = std::string("--" + Name.str() + ": '" + Value.str() + "' is not true or false");
        return false;
      }
      Out = *B;
      return true;
    };

    // Project-level flags.
    if (Name == "format") {
      O.ProjectFlag = "--format";
      llvm::StringRef V;
      if (!needValue(V))
        return false;
      if (V == "text")
        O.Format = OutputFormat::Text;
      else if (V == "json")
        O.Format = OutputFormat::Json;
      else {
        Error = std::string("--format: unknown format '" + V.str() + "' (text or json)");
        return false;
      }
      continue;
    }
    struct StringFlag {
      const char *Name;
      std::string *Out;
    } StringFlags[] = {{"export-sarif", &O.ExportSarif},
                       {"sarif-root", &O.SarifRoot},
                       {"baseline", &O.Baseline},
                       {"write-baseline", &O.WriteBaseline},
                       {"progress", &O.Progress},
                       {"cache-dir", &O.CacheDir},
                       {"torch-tidy-worker", &O.WorkerOutput},
                       {"torch-tidy-only-file", &O.OnlyFile}};
    bool Matched = false;
    for (StringFlag &F : StringFlags) {
      if (Name != F.Name)
        continue;
      llvm::StringRef V;
      if (!needValue(V))
        return false;
      if (V.empty()) {
        Error = std::string("--" + Name.str() + " needs a non-empty value");
        return false;
      }
      *F.Out = V.str();
      if (Name != "torch-tidy-worker" && Name != "torch-tidy-only-file" &&
          Name != "cache-dir")
        O.ProjectFlag = std::string("--" + Name.str());
      Matched = true;
    }
    if (Matched) {
      if (Name == "progress" && O.Progress != "auto" &&
          O.Progress != "always" && O.Progress != "never") {
        Error = "--progress: expected auto, always or never";
        return false;
      }
      continue;
    }
    if (Name == "shard") {
      O.ProjectFlag = "--shard";
      llvm::StringRef V;
      if (!needValue(V))
        return false;
      auto [K, N] = V.split('/');
      unsigned KV = 0, NV = 0;
      if (!parseUnsigned(K, KV) || !parseUnsigned(N, NV) || NV == 0 ||
          KV == 0 || KV > NV) {
        Error = std::string("--shard: '" + V.str() + "' is not K/N with 1 <= K <= N");
        return false;
      }
      O.ShardIndex = KV - 1;
      O.ShardCount = NV;
      continue;
    }
    struct BoolFlag {
      const char *Name;
      bool *Out;
      bool Value;
    } BoolFlags[] = {{"no-skip-torchless", &O.SkipTorchlessTUs, false},
                     {"no-skip-system-bodies", &O.SkipSystemBodies, false},
                     {"no-traversal-scope", &O.TraversalScope, false},
                     {"no-cache", &O.UseCache, false},
                     {"no-preamble-cache", &O.UsePreamble, false},
                     {"torch-tidy-reuse-preambles", &O.BuildPreambles, false}};
    for (BoolFlag &F : BoolFlags) {
      if (Name == F.Name && !HasValue) {
        *F.Out = F.Value;
        Matched = true;
      }
    }
    if (Matched)
      continue;

    // clang-tidy flags the engine handles.
    if (isOneOf(Name, ValueFlags)) {
      llvm::StringRef V;
      if (Name == "system-headers" || Name == "use-color") {
        bool B = true;
        if (!boolFlag(B))
          return false;
        (Name == "system-headers" ? O.SystemHeaders : O.UseColor) = B;
        O.ForwardArgs.push_back(std::string("--" + Name.str() + "=" + (B ? "true" : "false")));
        continue;
      }
      if (!needValue(V))
        return false;
      std::string S = V.str();
      if (Name == "checks") O.Checks = S;
      else if (Name == "warnings-as-errors") O.WarningsAsErrors = S;
      else if (Name == "header-filter") O.HeaderFilter = S;
      else if (Name == "exclude-header-filter") O.ExcludeHeaderFilter = S;
      else if (Name == "format-style") O.FormatStyle = S;
      else if (Name == "config") O.Config = S;
      else if (Name == "config-file") O.ConfigFile = S;
      else if (Name == "line-filter") O.LineFilter = S;
      else if (Name == "export-fixes") { O.ExportFixes = S; continue; }
      else if (Name == "p") { O.BuildPath = S; continue; }
      else if (Name == "extra-arg") O.ExtraArgs.push_back(S);
      else if (Name == "extra-arg-before") O.ExtraArgsBefore.push_back(S);
      O.ForwardArgs.push_back(std::string("--" + Name.str() + "=" + S));
      continue;
    }
    struct TidyBool {
      const char *Name;
      bool *Out;
    } TidyBools[] = {{"fix", &O.Fix},
                     {"fix-errors", &O.FixErrors},
                     {"fix-notes", &O.FixNotes},
                     {"quiet", &O.Quiet},
                     {"allow-no-checks", &O.AllowNoChecks}};
    for (TidyBool &F : TidyBools) {
      if (Name != F.Name)
        continue;
      if (!boolFlag(*F.Out))
        return false;
      Matched = true;
      if (Name == "quiet" || Name == "fix-notes" || Name == "allow-no-checks")
        O.ForwardArgs.push_back(std::string("--" + Name.str() + "=" + (*F.Out ? "true" : "false")));
    }
    if (Matched)
      continue;
    if (O.NeedsClangTidyMain.empty())
      O.NeedsClangTidyMain = Arg.str();
    (void)HandOverFlags;
  }
  if (!O.ExportFixes.empty() && O.ExportFixes != "-")
    ; // validated when written
  return true;
}

void printProjectHelp(llvm::raw_ostream &OS) {
  OS << R"(
torch-tidy project options (in addition to clang-tidy's):
  -p <build-dir>           with no files: check every translation unit of
                           <build-dir>/compile_commands.json
  -j <N>, --jobs=<N>       worker processes, one per translation unit
                           (default: all cores)
  --format=text|json       diagnostics as clang-tidy text (default) or JSON
  --export-sarif=<file>    also write SARIF 2.1.0
  --sarif-root=<dir>       SARIF paths are relative to this (default: the
                           repository root)
  --baseline=<file>        report and fail only findings not in <file>
  --write-baseline=<file>  record the current findings in <file>
  --shard=<K>/<N>          check only the K-th of N parts of the project
  --progress=auto|always|never
                           a progress line on a terminal (default: auto)
  --no-skip-torchless      also check translation units that cannot reach a
                           torch, ATen or c10 header
  --cache-dir=<dir>        where results and precompiled preambles are kept
                           (default: $XDG_CACHE_HOME/torch-tidy); --no-cache
                           turns both off
  --no-preamble-cache, --no-skip-system-bodies, --no-traversal-scope
                           turn off a speed-up (results are the same)
  torch-tidy merge [--format=json|sarif|fixes|baseline] -o <out> <inputs...>
                           combine per-shard outputs
  torch-tidy apply-fixes <fixes.yaml...>
                           apply exported (or merged) fixes as --fix does
  torch-tidy verify ...    run a flagged loop and measure its growth

Exit codes: 0 no finding fails the gate; 1 findings fail the gate
(--warnings-as-errors, as clang-tidy); 2 the tool could not do its job (bad
arguments, unreadable input, a translation unit that failed to parse or
crashed its worker).
)";
}

} // namespace torch_tidy
