//===--- VerifyOptions.cpp - the command line of `torch-tidy verify` ------===//
#include "runtime_verify/command/VerifyOptions.h"

#include "runtime_verify/instrument/Findings.h"

#include "llvm/ADT/SmallVector.h"
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
  return "usage: torch-tidy verify FILE.cpp [--line N] [--iterations N] [--warmup N]\n"
         "                         [--timeout S] [--repeat N] [--torch-dir DIR]\n"
         "                         [--format text|json] [--cache-dir DIR] [--cxx PATH]\n"
         "                         [--keep DIR] -- COMPILE_FLAGS\n"
         "       torch-tidy verify -p BUILD --build 'CMD' --run 'CMD' FILE:LINE\n"
         "                         [--iterations N] [--warmup N] [--timeout S] [--format text|json]\n"
         "       torch-tidy verify --build-only FILE.cpp -o PROGRAM [--torch-dir DIR] -- COMPILE_FLAGS\n"
         "\n" +
         wrap("Runs the loop of each growth finding (" + verifiableChecksList() +
                  ") with a probe, then again with the finding's fix-it applied, and "
                  "reports the autograd nodes and tensor bytes each iteration keeps. "
                  "Exit status: 0 nothing confirmed, 1 a finding confirmed, 2 verify "
                  "could not do its job.",
              74);
}

static bool parseUnsigned(llvm::StringRef Text, unsigned &Out) {
  return !Text.getAsInteger(10, Out);
}

/// The one input and what goes with each way of running verify.
static bool checkModes(VerifyOptions &O, const std::vector<std::string> &Positional,
                       std::string &Error) {
  if (Positional.size() != 1) {
    Error = Positional.empty() ? "no input file" : "more than one input file";
    return false;
  }
  O.File = Positional.front();
  bool InPlace = !O.BuildDir.empty() || !O.BuildCommand.empty() || !O.RunCommand.empty();
  if (InPlace) {
    if (O.BuildDir.empty() || O.BuildCommand.empty() || O.RunCommand.empty()) {
      Error = "-p BUILD, --build 'CMD' and --run 'CMD' go together";
      return false;
    }
    auto [Path, LineText] = llvm::StringRef(O.File).rsplit(':');
    unsigned Line = 0;
    if (LineText.empty() || !parseUnsigned(LineText, Line) || Line == 0) {
      Error = "in-place mode needs FILE:LINE, got '" + O.File + "'";
      return false;
    }
    O.File = Path.str();
    O.Line = Line;
  }
  if (O.BuildOnly && O.Output.empty()) {
    Error = "--build-only needs -o PROGRAM";
    return false;
  }
  return true;
}

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
    auto Next = [&](llvm::StringRef &V) {
      if (HasInline) {
        V = Value;
        return true;
      }
      if (I + 1 >= Argc) {
        Error = "missing value after " + Name.str();
        return false;
      }
      V = Argv[++I];
      return true;
    };
    auto Number = [&](unsigned &Out, unsigned Min) {
      llvm::StringRef V;
      if (!Next(V))
        return false;
      if (!parseUnsigned(V, Out) || Out < Min) {
        Error = "invalid value '" + V.str() + "' for " + Name.str();
        return false;
      }
      return true;
    };
    auto Text = [&](std::string &Out) {
      llvm::StringRef V;
      if (!Next(V))
        return false;
      Out = V.str();
      return true;
    };
    bool Ok = true;
    if (Name == "--line")
      Ok = Number(O.Line, 1);
    else if (Name == "--iterations")
      Ok = Number(O.Iterations, 3);
    else if (Name == "--warmup")
      Ok = Number(O.Warmup, 0);
    else if (Name == "--timeout")
      Ok = Number(O.Timeout, 1);
    else if (Name == "--repeat")
      Ok = Number(O.Repeat, 1);
    else if (Name == "--torch-dir")
      Ok = Text(O.TorchDir);
    else if (Name == "--cache-dir")
      Ok = Text(O.CacheDir);
    else if (Name == "--cxx")
      Ok = Text(O.Compiler);
    else if (Name == "--keep")
      Ok = Text(O.KeepDir);
    else if (Name == "--format") {
      Ok = Text(O.Format);
      if (Ok && O.Format != "text" && O.Format != "json") {
        Error = "invalid value '" + O.Format + "' for --format (text or json)";
        Ok = false;
      }
    } else if (Name == "-p")
      Ok = Text(O.BuildDir);
    else if (Name == "--build")
      Ok = Text(O.BuildCommand);
    else if (Name == "--run")
      Ok = Text(O.RunCommand);
    else if (Name == "--build-only" && !HasInline)
      O.BuildOnly = true;
    else if (Name == "-o")
      Ok = Text(O.Output);
    else if (A.starts_with("-") && A != "-") {
      Error = "unknown option '" + A.str() + "'";
      Ok = false;
    } else
      Positional.push_back(A.str());
    if (!Ok)
      return false;
  }
  return checkModes(O, Positional, Error);
}

} // namespace torch_tidy::verify
