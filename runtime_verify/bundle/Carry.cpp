//===--- Carry.cpp - what a bundle takes along from the lint machine ------===//
#include "runtime_verify/bundle/Carry.h"

#include "base/Paths.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstring>

namespace torch_tidy::verify {

namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

namespace {

struct KindSpelling {
  const char *Flag;
  const char *Kind;
};
// -iquote before -I: neither is a prefix of the other, but the order is the
// one a reader expects.
constexpr KindSpelling Spellings[] = {
    {"-iquote", "QUOTE"}, {"-isystem", "SYSTEM"}, {"-idirafter", "AFTER"}, {"-I", "ANGLED"}};

std::string absoluteIn(llvm::StringRef WorkingDir, llvm::StringRef P) {
  llvm::SmallString<256> Abs(P);
  if (!path::is_absolute(Abs)) {
    if (WorkingDir.empty())
      fs::make_absolute(Abs);
    else
      Abs = joinPath(WorkingDir, P);
  }
  path::remove_dots(Abs, /*remove_dot_dot=*/true);
  return std::string(Abs);
}

/// Whether \p File is inside the folder \p Dir.
bool under(llvm::StringRef File, llvm::StringRef Dir) {
  if (Dir == "/")
    return File.starts_with("/");
  return File.size() > Dir.size() && File.starts_with(Dir) && File[Dir.size()] == '/';
}

std::string relativeTo(llvm::StringRef File, llvm::StringRef Dir) {
  return Dir == "/" ? File.drop_front().str() : File.drop_front(Dir.size() + 1).str();
}

/// A folder of LibTorch's headers (its prefix's include/, or the C++ API's).
bool isTorchFolder(const std::string &Dir) {
  return fs::exists(joinPath(Dir, "ATen/ATen.h")) || fs::exists(joinPath(Dir, "torch/torch.h")) ||
         fs::exists(joinPath(Dir, "torch/csrc/api/include/torch/torch.h"));
}

/// A folder the machine that runs the bundle has as well.
bool isSystemFolder(llvm::StringRef Dir) {
  return Dir == "/usr" || Dir.starts_with("/usr/") || Dir.starts_with("/opt/");
}

std::string commonAncestor(llvm::StringRef A, llvm::StringRef B) {
  std::string Out;
  for (auto I = path::begin(A), J = path::begin(B), EA = path::end(A), EB = path::end(B);
       I != EA && J != EB && *I == *J; ++I, ++J)
    Out = Out.empty() ? std::string(*I) : joinPath(Out, *I);
  return Out.empty() ? "/" : Out;
}

/// An include folder of the flags whose headers the bundle copies.
struct Root {
  IncludeFlag Flag;
  bool Used = false;
};

} // namespace

SplitFlags splitIncludeFlags(const std::vector<std::string> &Flags) {
  std::string WorkingDir;
  for (size_t I = 0; I < Flags.size(); ++I) {
    llvm::StringRef F = Flags[I];
    if (F.consume_front("-working-directory="))
      WorkingDir = F.str();
    else if (F == "-working-directory" && I + 1 < Flags.size())
      WorkingDir = Flags[I + 1];
  }
  SplitFlags Out;
  for (size_t I = 0; I < Flags.size(); ++I) {
    llvm::StringRef F = Flags[I];
    if (F.starts_with("-working-directory")) {
      I += F == "-working-directory";
      continue;
    }
    if (F.starts_with("--driver-mode="))
      continue; // added by clang's tooling to a database's command

    const KindSpelling *Spelling = nullptr;
    for (const KindSpelling &S : Spellings)
      if (F.starts_with(S.Flag) && (F.size() > std::strlen(S.Flag) || I + 1 < Flags.size()))
        Spelling = &S;
    if (!Spelling) {
      Out.Options.push_back(Flags[I]);
      continue;
    }
    llvm::StringRef Value = F.drop_front(std::strlen(Spelling->Flag));
    if (Value.empty())
      Value = Flags[++I];
    Out.Includes.push_back({Spelling->Kind, absoluteIn(WorkingDir, Value)});
  }
  return Out;
}

std::vector<std::string> includeFlags(const std::vector<IncludeFlag> &Includes) {
  std::vector<std::string> Flags;
  for (const IncludeFlag &I : Includes)
    for (const KindSpelling &S : Spellings)
      if (I.Kind == S.Kind) {
        Flags.push_back(S.Flag);
        Flags.push_back(I.Path);
      }
  return Flags;
}

std::vector<std::string> carriedOptions(const SplitFlags &Flags) {
  std::vector<IncludeFlag> Kept;
  for (const IncludeFlag &I : Flags.Includes)
    if (isSystemFolder(I.Path) && !isTorchFolder(I.Path))
      Kept.push_back(I);
  std::vector<std::string> Options = Flags.Options;
  for (const std::string &F : includeFlags(Kept))
    Options.push_back(F);
  return Options;
}

CarryPlan planCarry(const SplitFlags &Flags, const std::string &SourceDir,
                    const std::vector<IncludedFile> &Included,
                    const std::vector<std::string> &TorchDirs,
                    const std::string &Folder) {
  CarryPlan Plan;
  Plan.Options = carriedOptions(Flags);
  std::vector<std::string> Torch, Kept;
  for (const std::string &Dir : TorchDirs)
    Torch.push_back(absoluteIn("", Dir));
  std::vector<Root> Roots;
  for (const IncludeFlag &I : Flags.Includes) {
    if (isTorchFolder(I.Path))
      Torch.push_back(I.Path);
    else if (isSystemFolder(I.Path))
      Kept.push_back(I.Path);
    else
      Roots.push_back({I});
  }

  auto Inside = [](const std::string &File, const std::vector<std::string> &Dirs) {
    return llvm::any_of(Dirs, [&](const std::string &D) { return under(File, D); });
  };
  auto RootOf = [&](const std::string &File) {
    int Best = -1;
    for (size_t J = 0; J < Roots.size(); ++J)
      if (under(File, Roots[J].Flag.Path) &&
          (Best < 0 || Roots[J].Flag.Path.size() > Roots[Best].Flag.Path.size()))
        Best = static_cast<int>(J);
    return Best;
  };
  // The program's folder, widened to hold every header of its own that no
  // include folder holds ("../common.h").
  std::string SourceRoot = absoluteIn("", SourceDir);
  std::string ProgramDir = SourceRoot;
  for (const IncludedFile &F : Included)
    if (!F.System && !Inside(F.Path, Torch) && !Inside(F.Path, Kept) && RootOf(F.Path) < 0 &&
        !under(F.Path, SourceRoot))
      SourceRoot = commonAncestor(SourceRoot, path::parent_path(F.Path));

  for (const IncludedFile &F : Included) {
    if (Inside(F.Path, Torch) || Inside(F.Path, Kept))
      continue;
    int J = RootOf(F.Path);
    bool InProgram = !F.System && under(F.Path, SourceRoot) &&
                     (J < 0 || SourceRoot.size() >= Roots[J].Flag.Path.size());
    if (InProgram) {
      Plan.Copies.push_back({F.Path, Folder + "/src/" + relativeTo(F.Path, SourceRoot)});
    } else if (J >= 0) {
      Roots[J].Used = true;
      Plan.Copies.push_back({F.Path, Folder + "/include-" + std::to_string(J + 1) + "/" +
                                         relativeTo(F.Path, Roots[J].Flag.Path)});
    }
  }
  std::string Own = Folder + "/src";
  if (ProgramDir != SourceRoot)
    Own += "/" + relativeTo(ProgramDir, SourceRoot);
  Plan.Includes.push_back({"QUOTE", Own});
  for (size_t J = 0; J < Roots.size(); ++J)
    if (Roots[J].Used)
      Plan.Includes.push_back({Roots[J].Flag.Kind, Folder + "/include-" + std::to_string(J + 1)});
  return Plan;
}

} // namespace torch_tidy::verify
