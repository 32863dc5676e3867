//===--- Options.cpp - torch-tidy's command line --------------------------===//
//
// The flag table: every flag torch-tidy parses itself, how it is stored,
// what a worker process is told of it, and its --help entry. A flag not in
// the table hands the run to clang-tidy's own main (--list-checks,
// --dump-config, --help, ...).
//
//===----------------------------------------------------------------------===//

#include "driver/Options.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>

namespace torch_tidy {

const char DefaultChecks[] = "clang-diagnostic-*,clang-analyzer-*";

namespace {

using Args = std::vector<std::string>;

/// What a flag takes.
enum class Shape {
  Value,  ///< --name=V or --name V
  Bool,   ///< --name (true) or --name=true|false, never the next argument
  Switch, ///< --name alone; with a value it is not this flag
};

struct Flag {
  const char *Name; ///< without dashes
  Shape Takes;
  /// Stores the value; false with the error set when it is not acceptable.
  std::function<bool(DriverOptions &, llvm::StringRef, std::string &)> Set;
  /// Adds what a worker must be told to run the same checks the same way;
  /// null when only this process uses the flag.
  std::function<void(const DriverOptions &, Args &)> Forward;
  /// A project-level flag: it cannot go with a run handed to clang-tidy.
  bool Project = false;
  HelpEntry Help = {nullptr, nullptr};
  const char *Spelling = nullptr; ///< in messages; default "--<name>"
  const char *ValueName = "a value";

  std::string spelling() const {
    return Spelling ? Spelling : std::string("--") + Name;
  }
};

std::optional<bool> parseBool(llvm::StringRef V) {
  return llvm::StringSwitch<std::optional<bool>>(V.lower())
      .Cases("", "true", "1", "yes", true)
      .Cases("false", "0", "no", false)
      .Default(std::nullopt);
}

bool parseUnsigned(llvm::StringRef V, unsigned &Out) {
  return !V.getAsInteger(10, Out);
}

// Row makers, one per kind of field.

/// A clang-tidy flag with an optional text value, passed on as given.
Flag tidyText(const char *Name,
              std::optional<std::string> DriverOptions::*Field) {
  return {Name, Shape::Value,
          [Field](DriverOptions &O, llvm::StringRef V, std::string &) {
            O.*Field = V.str();
            return true;
          },
          [Name, Field](const DriverOptions &O, Args &A) {
            if (O.*Field)
              A.push_back(std::string("--") + Name + "=" + *(O.*Field));
          }};
}

/// A clang-tidy flag that may repeat, each value passed on.
Flag tidyList(const char *Name,
              std::vector<std::string> DriverOptions::*Field) {
  return {Name, Shape::Value,
          [Field](DriverOptions &O, llvm::StringRef V, std::string &) {
            (O.*Field).push_back(V.str());
            return true;
          },
          [Name, Field](const DriverOptions &O, Args &A) {
            for (const std::string &V : O.*Field)
              A.push_back(std::string("--") + Name + "=" + V);
          }};
}

bool setBool(const char *Name, llvm::StringRef V, bool &Out,
             std::string &Error) {
  std::optional<bool> B = parseBool(V);
  if (!B) {
    Error =
        std::string("--") + Name + ": '" + V.str() + "' is not true or false";
    return false;
  }
  Out = *B;
  return true;
}

/// A clang-tidy true/false flag that overrides the configuration when given.
Flag tidyOptionalBool(const char *Name,
                      std::optional<bool> DriverOptions::*Field) {
  return {
      Name, Shape::Bool,
      [Name, Field](DriverOptions &O, llvm::StringRef V, std::string &Error) {
        bool B = true;
        if (!setBool(Name, V, B, Error))
          return false;
        O.*Field = B;
        return true;
      },
      [Name, Field](const DriverOptions &O, Args &A) {
        if (O.*Field)
          A.push_back(std::string("--") + Name + "=" +
                      (*(O.*Field) ? "true" : "false"));
      }};
}

/// A clang-tidy true/false flag; \p Forwarded when workers act on it too.
Flag tidyBool(const char *Name, bool DriverOptions::*Field, bool Forwarded) {
  Flag F{
      Name, Shape::Bool,
      [Name, Field](DriverOptions &O, llvm::StringRef V, std::string &Error) {
        return setBool(Name, V, O.*Field, Error);
      },
      nullptr};
  if (Forwarded)
    F.Forward = [Name, Field](const DriverOptions &O, Args &A) {
      if (O.*Field)
        A.push_back(std::string("--") + Name + "=true");
    };
  return F;
}

/// A flag with a text value (\p NonEmpty: it must not be empty); a worker
/// is told \p ForwardAs NAME=VALUE when it is set, or nothing when
/// \p ForwardAs is null.
Flag textFlag(const char *Name, std::string DriverOptions::*Field,
              bool NonEmpty, const char *ForwardAs) {
  Flag F{Name, Shape::Value,
         [Name, Field, NonEmpty](DriverOptions &O, llvm::StringRef V,
                                 std::string &Error) {
           if (NonEmpty && V.empty()) {
             Error = std::string("--") + Name + " needs a non-empty value";
             return false;
           }
           O.*Field = V.str();
           return true;
         },
         nullptr};
  if (ForwardAs)
    F.Forward = [Name, Field, ForwardAs](const DriverOptions &O, Args &A) {
      if (!(O.*Field).empty())
        A.push_back(ForwardAs + std::string(Name) + "=" + O.*Field);
    };
  return F;
}

/// A flag with a non-empty text value; \p Forwarded when workers need it.
Flag text(const char *Name, std::string DriverOptions::*Field, bool Forwarded) {
  return textFlag(Name, Field, /*NonEmpty=*/true, Forwarded ? "--" : nullptr);
}

/// A clang-tidy flag naming a file or folder; \p Forwarded: a worker gets
/// it as -NAME=VALUE.
Flag tidyPath(const char *Name, std::string DriverOptions::*Field,
              bool Forwarded) {
  return textFlag(Name, Field, /*NonEmpty=*/false, Forwarded ? "-" : nullptr);
}

/// \p F with its --help entry.
Flag helped(Flag F, HelpEntry Help) {
  F.Help = Help;
  return F;
}

/// A project-level flag with a non-empty text value.
Flag projectText(const char *Name, std::string DriverOptions::*Field,
                 HelpEntry Help) {
  Flag F = helped(text(Name, Field, /*Forwarded=*/false), Help);
  F.Project = true;
  return F;
}

/// A switch that sets \p Field to \p To; \p Forwarded when workers act on
/// it (they are told it when \p Field is \p To).
Flag setSwitch(const char *Name, bool DriverOptions::*Field, bool To,
               bool Forwarded, HelpEntry Help) {
  Flag F{Name, Shape::Switch,
         [Field, To](DriverOptions &O, llvm::StringRef, std::string &) {
           O.*Field = To;
           return true;
         },
         nullptr};
  if (Forwarded)
    F.Forward = [Name, Field, To](const DriverOptions &O, Args &A) {
      if (O.*Field == To)
        A.push_back(std::string("--") + Name);
    };
  F.Help = Help;
  return F;
}

/// A switch that turns \p Field off; \p Forwarded when workers act on it.
Flag turnOff(const char *Name, bool DriverOptions::*Field, bool Forwarded,
             HelpEntry Help = {nullptr, nullptr}) {
  return setSwitch(Name, Field, false, Forwarded, Help);
}

/// An internal switch that turns \p Field on, for one worker only.
Flag turnOn(const char *Name, bool DriverOptions::*Field) {
  return setSwitch(Name, Field, true, /*Forwarded=*/false, {nullptr, nullptr});
}

bool setJobs(DriverOptions &O, llvm::StringRef V, std::string &Error) {
  if (!parseUnsigned(V, O.Jobs)) {
    Error = "-j: '" + V.str() + "' is not a number of jobs";
    return false;
  }
  return true;
}

bool setFormat(DriverOptions &O, llvm::StringRef V, std::string &Error) {
  if (V == "text")
    O.Format = OutputFormat::Text;
  else if (V == "json")
    O.Format = OutputFormat::Json;
  else {
    Error = "--format: unknown format '" + V.str() + "' (text or json)";
    return false;
  }
  return true;
}

bool setExportSummaries(DriverOptions &O, llvm::StringRef V,
                        std::string &Error) {
  if (V.empty()) {
    Error = "--export-summaries needs a non-empty value";
    return false;
  }
  // From the directory the tool runs in, whatever directory the units are
  // analysed in.
  llvm::SmallString<256> Path(V);
  llvm::sys::fs::make_absolute(Path);
  O.ExportSummaries = std::string(Path);
  O.CollectSummaries = true;
  return true;
}

bool setRound(DriverOptions &O, llvm::StringRef V, std::string &Error) {
  if (!parseUnsigned(V, O.SummariesRound)) {
    Error = "--torch-tidy-round: '" + V.str() + "' is not a number";
    return false;
  }
  return true;
}

bool setShard(DriverOptions &O, llvm::StringRef V, std::string &Error) {
  auto [K, N] = V.split('/');
  unsigned KV = 0, NV = 0;
  if (!parseUnsigned(K, KV) || !parseUnsigned(N, NV) || NV == 0 || KV == 0 ||
      KV > NV) {
    Error = "--shard: '" + V.str() + "' is not K/N with 1 <= K <= N";
    return false;
  }
  O.ShardIndex = KV - 1;
  O.ShardCount = NV;
  return true;
}

bool setProgress(DriverOptions &O, llvm::StringRef V, std::string &Error) {
  if (V.empty()) {
    Error = "--progress needs a non-empty value";
    return false;
  }
  if (V != "auto" && V != "always" && V != "never") {
    Error = "--progress: expected auto, always or never";
    return false;
  }
  O.Progress = V.str();
  return true;
}

/// -j N, -jN, --jobs=N.
Flag jobs(HelpEntry Help) {
  Flag F{"jobs", Shape::Value, setJobs, nullptr, /*Project=*/true, Help};
  F.Spelling = "-j";
  F.ValueName = "a number of jobs";
  return F;
}

/// A project-level flag whose value \p Set checks and stores.
Flag project(const char *Name,
             bool (*Set)(DriverOptions &, llvm::StringRef, std::string &),
             HelpEntry Help) {
  Flag F{Name, Shape::Value, Set, nullptr, /*Project=*/true, Help};
  return F;
}

/// Internal: the round of a project run, told to every worker.
Flag summariesRound() {
  return {"torch-tidy-round", Shape::Value, setRound,
          [](const DriverOptions &O, Args &A) {
            if (O.SummariesRound)
              A.push_back("--torch-tidy-round=" +
                          std::to_string(O.SummariesRound));
          }};
}

using O = DriverOptions;

const std::vector<Flag> &flagTable() {
  static const std::vector<Flag> Table = {
#include "driver/Flags.def"
  };
  return Table;
}

/// The row of \p Name; \p HasValue rules out switches given a value.
const Flag *findFlag(llvm::StringRef Name, bool HasValue) {
  for (const Flag &F : flagTable())
    if (Name == F.Name && !(F.Takes == Shape::Switch && HasValue))
      return &F;
  return nullptr;
}

/// -j N, -jN and --jobs=N are one flag: "jobs", with "-jN"'s digits as
/// its value.
void normaliseJobs(llvm::StringRef &Name, llvm::StringRef &Value,
                   bool &HasValue) {
  if (Name == "j") {
    Name = "jobs";
  } else if (Name.starts_with("j") && Name.size() > 1 && Name != "jobs" &&
             llvm::all_of(Name.drop_front(),
                          [](char C) { return llvm::isDigit(C); })) {
    Value = Name.drop_front();
    HasValue = true;
    Name = "jobs";
  }
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
    llvm::StringRef Name = Arg.drop_front(Arg.starts_with("--") ? 2 : 1), Value;
    bool HasValue = false;
    if (size_t Eq = Name.find('='); Eq != llvm::StringRef::npos) {
      Value = Name.drop_front(Eq + 1);
      Name = Name.take_front(Eq);
      HasValue = true;
    }
    normaliseJobs(Name, Value, HasValue);
    const Flag *F = findFlag(Name, HasValue);
    if (!F) {
      if (O.NeedsClangTidyMain.empty())
        O.NeedsClangTidyMain = Arg.str();
      continue;
    }
    if (F->Project)
      O.ProjectFlag = F->spelling();
    if (F->Takes == Shape::Value && !HasValue) {
      if (I + 1 >= Args.size()) {
        Error = F->spelling() + " needs " + F->ValueName;
        return false;
      }
      Value = Args[++I];
    }
    if (!F->Set(O, Value, Error))
      return false;
  }
  return true;
}

std::vector<std::string> workerArguments(const DriverOptions &O) {
  Args A;
  for (const Flag &F : flagTable())
    if (F.Forward)
      F.Forward(O, A);
  return A;
}

static void printHelpEntry(llvm::raw_ostream &OS, const HelpEntry &E) {
  llvm::StringRef Usage = E.first;
  OS << "  " << Usage;
  if (Usage.size() <= 23)
    OS.indent(25 - Usage.size());
  else
    OS << "\n" << std::string(27, ' ');
  llvm::SmallVector<llvm::StringRef, 4> Lines;
  llvm::StringRef(E.second).split(Lines, '\n');
  for (size_t I = 0; I < Lines.size(); ++I)
    OS << (I ? std::string(27, ' ') : "") << Lines[I] << "\n";
}

void printProjectHelp(llvm::raw_ostream &OS,
                      llvm::ArrayRef<HelpEntry> Subcommands) {
  OS << "\ntorch-tidy project options (in addition to clang-tidy's):\n";
  for (const Flag &F : flagTable())
    if (F.Help.first)
      printHelpEntry(OS, F.Help);
  for (const HelpEntry &E : Subcommands)
    printHelpEntry(OS, E);
  OS << R"(
Exit codes: 0 no finding fails the gate; 1 findings fail the gate
(--warnings-as-errors, as clang-tidy); 2 the tool could not do its job (bad
arguments, unreadable input, a translation unit that failed to parse or
crashed its worker).
)";
}

} // namespace torch_tidy
