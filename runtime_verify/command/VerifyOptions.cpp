//===--- VerifyOptions.cpp - the command line of `torch-tidy verify` ------===//
#include "runtime_verify/command/VerifyOptions.h"

#include "runtime_verify/instrument/Findings.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"

namespace torch_tidy::verify {

/// \p Text with its words wrapped at \p Width columns.
static std::string wrap(llvm::StringRef Text, size_t Width) {
  std::string Out;
  size_t Column = 0;
  llvm::SmallVector<llvm::StringRef, 64> Words;
  Text.split(Words, ' ', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef W : Words) {
    if (Column && Column + 1 + W.size() > Width) {
      Out += "\n";
      Column = 0;
    } else if (Column) {
      Out += " ";
      ++Column;
    }
    Out += W.str();
    Column += W.size();
  }
  return Out + "\n";
}

std::string verifyUsage() {
  return "usage: torch-tidy verify FILE.cpp... [--line N] [--iterations N] [--warmup N]\n"
         "                         [--timeout S] [--repeat N] [--torch-dir DIR]\n"
         "                         [--format text|json] [--cache-dir DIR] [--cxx PATH]\n"
         "                         [--keep DIR] [--device cuda|cpu|auto] [--memory-limit BYTES]\n"
         "                         [--sarif IN --export-sarif OUT] -- COMPILE_FLAGS\n"
         "       torch-tidy verify --bundle DIR FILE.cpp... [-p BUILD] [--line N] [--iterations N]\n"
         "                         [--warmup N] [--timeout S] [--repeat N] [--torch-dir DIR]\n"
         "                         [-- COMPILE_FLAGS]\n"
         "       torch-tidy verify --judge DIR [--format text|json] [--memory-limit BYTES]\n"
         "                         [--sarif IN --export-sarif OUT]\n"
         "       torch-tidy verify -p BUILD --build 'CMD' --run 'CMD' FILE:LINE\n"
         "                         [--iterations N] [--warmup N] [--timeout S] [--format text|json]\n"
         "       torch-tidy verify --build-only FILE.cpp -o PROGRAM [--torch-dir DIR] -- COMPILE_FLAGS\n"
         "\n" +
         wrap("Runs the loop of each growth finding (" + verifiableChecksList() +
                  ") with a probe, then again with the finding's fix-it applied, and "
                  "reports the autograd nodes and tensor bytes each iteration keeps. "
                  "--bundle writes the instrumented programs, their build and a run script "
                  "to DIR, to run where LibTorch is (DIR/run, no LLVM needed); --judge reads "
                  "what that run left and prints the same verdicts. "
                  "Exit status: 0 nothing confirmed, 1 a finding confirmed, 2 verify "
                  "could not do its job.",
              74);
}

static bool parseUnsigned(llvm::StringRef Text, unsigned &Out) {
  return !Text.getAsInteger(10, Out);
}

/// "80000000000", "80G", "80GB", "76GiB", "512Mi": bytes, with a decimal
/// (K, M, G, T) or binary (Ki, Mi, Gi, Ti) multiple.
static bool parseBytes(llvm::StringRef Text, double &Out) {
  llvm::StringRef Digits = Text.take_while(llvm::isDigit);
  llvm::StringRef Unit = Text.drop_front(Digits.size());
  uint64_t N = 0;
  if (Digits.empty() || Digits.getAsInteger(10, N) || N == 0)
    return false;
  Unit.consume_back("B");
  bool Binary = Unit.consume_back("i");
  size_t Power = llvm::StringRef("KMGT").find(Unit);
  if (Unit.size() > 1 || (Unit.empty() && Binary) || (!Unit.empty() && Power == llvm::StringRef::npos))
    return false;
  Out = static_cast<double>(N);
  for (size_t I = 0; !Unit.empty() && I <= Power; ++I)
    Out *= Binary ? 1024.0 : 1000.0;
  return true;
}

/// The one line an option in the wrong mode gets.
static bool refuse(std::string &Error, const std::string &Message) {
  Error = Message;
  return false;
}

/// What goes with --judge and --bundle.
static bool checkBundleModes(VerifyOptions &O, const std::vector<std::string> &Positional,
                             std::string &Error) {
  bool InPlace = !O.BuildCommand.empty() || !O.RunCommand.empty();
  if (!O.JudgeDir.empty()) {
    if (!O.BundleDir.empty() || InPlace || !O.BuildDir.empty() || O.BuildOnly)
      return refuse(Error, "--judge DIR goes with --format, --memory-limit and --sarif only");
    if (!Positional.empty())
      return refuse(Error, "--judge DIR takes no input file (the bundle names its programs)");
    return true;
  }
  if (InPlace || O.BuildOnly)
    return refuse(Error, "--bundle DIR writes programs to run elsewhere: it does not go with "
                         "--build, --run or --build-only");
  if (!O.SarifIn.empty())
    return refuse(Error, "--sarif goes with --judge, which has the verdicts");
  if (!O.BuildDir.empty() && !O.CompileFlags.empty())
    return refuse(Error, "-p BUILD takes each file's flags from BUILD/compile_commands.json; "
                         "give no flags after --");
  return true;
}

/// The input files and what goes with each way of running verify.
static bool checkModes(VerifyOptions &O, const std::vector<std::string> &Positional,
                       std::string &Error) {
  if (O.SarifIn.empty() != O.SarifOut.empty())
    return refuse(Error, "--sarif IN and --export-sarif OUT go together");
  if (!O.JudgeDir.empty() || !O.BundleDir.empty()) {
    if (!checkBundleModes(O, Positional, Error))
      return false;
    if (!O.JudgeDir.empty())
      return true;
  }
  if (Positional.empty())
    return refuse(Error, "no input file");
  O.Files = Positional;
  O.File = Positional.front();
  bool InPlace = !O.BuildCommand.empty() || !O.RunCommand.empty() ||
                 (!O.BuildDir.empty() && O.BundleDir.empty());
  if ((InPlace || O.BuildOnly) && Positional.size() > 1)
    return refuse(Error, "more than one input file");
  if (O.Line && Positional.size() > 1)
    return refuse(Error, "--line N goes with one input file");
  if (InPlace) {
    if (O.BuildDir.empty() || O.BuildCommand.empty() || O.RunCommand.empty())
      return refuse(Error, "-p BUILD, --build 'CMD' and --run 'CMD' go together (or -p BUILD "
                           "with --bundle DIR)");
    auto [Path, LineText] = llvm::StringRef(O.File).rsplit(':');
    unsigned Line = 0;
    if (LineText.empty() || !parseUnsigned(LineText, Line) || Line == 0)
      return refuse(Error, "in-place mode needs FILE:LINE, got '" + O.File + "'");
    O.File = Path.str();
    O.Files = {O.File};
    O.Line = Line;
  }
  if (O.BuildOnly && O.Output.empty())
    return refuse(Error, "--build-only needs -o PROGRAM");
  return true;
}

namespace {

/// One option of verify's command line.
struct OptionRow {
  const char *Name;
  enum { Count, Text, Bytes, Flag } Kind;
  unsigned VerifyOptions::*CountField; ///< Count: where it goes
  unsigned Min;                        ///< Count: the least value
  std::string VerifyOptions::*TextField;
  const char *Choices; ///< Text: the values allowed ("a|b"), or null
};

using V = VerifyOptions;
const OptionRow OptionTable[] = {
    {"--line", OptionRow::Count, &V::Line, 1, nullptr, nullptr},
    {"--iterations", OptionRow::Count, &V::Iterations, 3, nullptr, nullptr},
    {"--warmup", OptionRow::Count, &V::Warmup, 0, nullptr, nullptr},
    {"--timeout", OptionRow::Count, &V::Timeout, 1, nullptr, nullptr},
    {"--repeat", OptionRow::Count, &V::Repeat, 1, nullptr, nullptr},
    {"--torch-dir", OptionRow::Text, nullptr, 0, &V::TorchDir, nullptr},
    {"--cache-dir", OptionRow::Text, nullptr, 0, &V::CacheDir, nullptr},
    {"--cxx", OptionRow::Text, nullptr, 0, &V::Compiler, nullptr},
    {"--keep", OptionRow::Text, nullptr, 0, &V::KeepDir, nullptr},
    {"--format", OptionRow::Text, nullptr, 0, &V::Format, "text|json"},
    {"--device", OptionRow::Text, nullptr, 0, &V::Device, "cuda|cpu|auto"},
    {"--memory-limit", OptionRow::Bytes, nullptr, 0, nullptr, nullptr},
    {"--sarif", OptionRow::Text, nullptr, 0, &V::SarifIn, nullptr},
    {"--export-sarif", OptionRow::Text, nullptr, 0, &V::SarifOut, nullptr},
    {"--bundle", OptionRow::Text, nullptr, 0, &V::BundleDir, nullptr},
    {"--judge", OptionRow::Text, nullptr, 0, &V::JudgeDir, nullptr},
    {"-p", OptionRow::Text, nullptr, 0, &V::BuildDir, nullptr},
    {"--build", OptionRow::Text, nullptr, 0, &V::BuildCommand, nullptr},
    {"--run", OptionRow::Text, nullptr, 0, &V::RunCommand, nullptr},
    {"-o", OptionRow::Text, nullptr, 0, &V::Output, nullptr},
    {"--build-only", OptionRow::Flag, nullptr, 0, nullptr, nullptr},
};

/// Stores \p Value for option \p Row; false with \p Error set when it is
/// not a value the option takes.
bool store(const OptionRow &Row, llvm::StringRef Value, VerifyOptions &O, std::string &Error) {
  std::string Invalid = "invalid value '" + Value.str() + "' for " + Row.Name;
  switch (Row.Kind) {
  case OptionRow::Count:
    if (!parseUnsigned(Value, O.*Row.CountField) || O.*Row.CountField < Row.Min)
      return refuse(Error, Invalid);
    return true;
  case OptionRow::Bytes:
    if (!parseBytes(Value, O.MemoryLimit))
      return refuse(Error, Invalid + " (bytes, or a number with K, M, G, Ki, Mi, Gi)");
    return true;
  case OptionRow::Text: {
    llvm::SmallVector<llvm::StringRef, 4> Allowed;
    if (Row.Choices)
      llvm::StringRef(Row.Choices).split(Allowed, '|');
    if (Row.Choices && !llvm::is_contained(Allowed, Value)) {
      std::string Choices = llvm::join(llvm::ArrayRef(Allowed).drop_back(), ", ");
      return refuse(Error, Invalid + " (" + Choices + " or " + Allowed.back().str() + ")");
    }
    O.*Row.TextField = Value.str();
    return true;
  }
  case OptionRow::Flag:
    O.BuildOnly = true;
    return true;
  }
  return true;
}

} // namespace

bool parseVerifyOptions(int Argc, const char **Argv, VerifyOptions &O, std::string &Error) {
  std::vector<std::string> Positional;
  for (int I = 1; I < Argc; ++I) {
    llvm::StringRef A = Argv[I];
    if (A == "--") {
      for (++I; I < Argc; ++I)
        O.CompileFlags.push_back(Argv[I]);
      break;
    }
    // --name=value or --name value.
    llvm::StringRef Name = A, Value;
    bool HasInline = false;
    if (A.starts_with("--") && A.contains('=')) {
      std::tie(Name, Value) = A.split('=');
      HasInline = true;
    }
    const OptionRow *Row = llvm::find_if(
        OptionTable, [&](const OptionRow &R) { return Name == R.Name; });
    if (Row == std::end(OptionTable) || (Row->Kind == OptionRow::Flag && HasInline)) {
      if (A.starts_with("-") && A != "-")
        return refuse(Error, "unknown option '" + A.str() + "'");
      Positional.push_back(A.str());
      continue;
    }
    if (Row->Kind != OptionRow::Flag && !HasInline) {
      if (I + 1 >= Argc)
        return refuse(Error, "missing value after " + Name.str());
      Value = Argv[++I];
    }
    if (!store(*Row, Value, O, Error))
      return false;
  }
  return checkModes(O, Positional, Error);
}

} // namespace torch_tidy::verify
