//===--- Writer.cpp - writing a verify bundle -----------------------------===//
#include "runtime_verify/bundle/Writer.h"
#include "runtime_verify/bundle/Layout.h"

#include "base/AtomicWrite.h"
#include "base/Hashing.h"
#include "base/Paths.h"
#include "runtime_verify/instrument/ProgramBuild.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace torch_tidy::verify {

namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

// The run script and the CMake helpers, as BundleRunScript and
// BundleCMakeHelpers (generated from runtime_verify/bundle/).
#include "BundleFiles.inc"

FindingFacts findingFacts(const Finding &F, const ProbePlan &P) {
  FindingFacts B;
  B.Line = F.Line;
  B.Check = F.Check;
  B.Probe = F.Probe;
  B.Message = F.Message;
  B.ProbeName = P.ProbeName;
  B.Target = P.Target;
  B.Where = P.Where;
  B.Error = P.Error;
  B.HasFix = !F.Fix.empty();
  return B;
}

namespace {

/// A bundle's files before they are written, by their path in the bundle.
struct BundleFiles {
  std::vector<std::pair<std::string, std::string>> Texts;
  std::vector<std::pair<std::string, std::string>> Copies; ///< from -> to
  /// Include folders, made even when empty: "../x.h" is looked up through
  /// them.
  std::vector<std::string> Folders;
};

llvm::Error fail(const std::string &Message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Message);
}

/// The variants of finding \p F of \p P: as written and, when it has a
/// fix, with it.
void addVariants(const ProgramInput &P, const Finding &F, const ProbePlan &Plan,
                 BundleFinding &Out, BundleFiles &Files) {
  std::string Folder = "findings/" + Out.Id.substr(Out.Id.rfind('-') + 1);
  auto Add = [&](const std::string &Name, llvm::Expected<std::string> Text) {
    BundleVariant V;
    V.Name = Name;
    if (!Text) {
      V.Error = "cannot apply the edits: " + llvm::toString(Text.takeError());
    } else {
      V.Source = Folder + "/" + Name + "/" + P.Base;
      Files.Texts.push_back({V.Source, std::move(*Text)});
    }
    Out.Variants.push_back(std::move(V));
  };
  Add("original", applyInsertions(P.Code, Plan.Insertions));
  if (Out.HasFix)
    Add("fixed", applyFixAndInsertions(P.Code, F.Fix, Plan.Insertions));
}

BundleManifest manifestFor(const BundleSettings &Settings,
                           const std::vector<ProgramInput> &Programs, BundleFiles &Files) {
  BundleManifest M;
  M.Settings = Settings;
  for (size_t K = 0; K < Programs.size(); ++K) {
    const ProgramInput &P = Programs[K];
    std::string Folder = "programs/" + std::to_string(K + 1);
    M.Programs.push_back({P.File, Folder, P.Carry.Options, P.Carry.Includes});
    for (const auto &Copy : P.Carry.Copies)
      Files.Copies.push_back(Copy);
    for (const BundleInclude &I : P.Carry.Includes)
      Files.Folders.push_back(I.Folder);
    for (size_t I = 0; I < P.Findings.size(); ++I) {
      const Finding &F = P.Findings[I];
      const ProbePlan &Plan = P.Plans[I];
      BundleFinding B;
      static_cast<FindingFacts &>(B) = findingFacts(F, Plan);
      B.Id = "finding-" + std::to_string(M.Findings.size() + 1);
      B.Program = static_cast<unsigned>(K);
      if (B.Error.empty())
        addVariants(P, F, Plan, B, Files);
      M.Findings.push_back(std::move(B));
    }
  }
  return M;
}

/// \p Text as one CMake bracket argument.
std::string bracket(llvm::StringRef Text) {
  std::string Eq;
  while (Text.contains("]" + Eq + "]"))
    Eq += "=";
  return "[" + Eq + "[" + Text.str() + "]" + Eq + "]";
}

/// \p Arg quoted for CMake's "SHELL:" splitting, when it needs to be.
std::string shellWord(llvm::StringRef Arg) {
  if (!Arg.empty() && Arg.find_first_of(" \t\"'\\") == llvm::StringRef::npos)
    return Arg.str();
  std::string Out = "\"";
  for (char C : Arg) {
    if (C == '"' || C == '\\')
      Out += '\\';
    Out += C;
  }
  return Out + "\"";
}

/// The options as CMake compile options: an option with a separate value
/// is one "SHELL:" entry (CMake drops repeated entries otherwise).
llvm::Expected<std::vector<std::string>> cmakeOptions(const std::vector<std::string> &Options) {
  static const llvm::StringSet<> TakesValue = {
      "-Xclang", "-include", "-imacros", "-x",      "-D",      "-U",        "-Xpreprocessor",
      "-mllvm",  "-target",  "-isystem", "-iquote", "-I",      "-idirafter", "-isysroot",
      "--sysroot", "-arch",  "-Xlinker", "-MF",     "-MT",     "-MQ"};
  std::vector<std::string> Out;
  for (size_t I = 0; I < Options.size(); ++I) {
    llvm::StringRef A = Options[I];
    if (A.contains(';'))
      return fail("a bundle cannot carry the option '" + A.str() +
                  "' (CMake lists cannot hold ';')");
    if (TakesValue.contains(A) && I + 1 < Options.size()) {
      if (llvm::StringRef(Options[I + 1]).contains(';'))
        return fail("a bundle cannot carry the option '" + Options[I + 1] +
                    "' (CMake lists cannot hold ';')");
      Out.push_back("SHELL:" + shellWord(A) + " " + shellWord(Options[++I]));
    } else if (shellWord(A) != A) {
      Out.push_back("SHELL:" + shellWord(A));
    } else {
      Out.push_back(A.str());
    }
  }
  return Out;
}

llvm::Expected<std::string> cmakeLists(const BundleManifest &M) {
  std::string Text =
      "# A torch-tidy verify bundle: " + std::to_string(M.Findings.size()) + " findings in " +
      std::to_string(M.Programs.size()) +
      " programs, written by `torch-tidy verify --bundle`.\n"
      "# Build and run it with\n"
      "#   ./run [--device cuda|cpu|auto] [--torch LIBTORCH]\n"
      "# then judge the results with `torch-tidy verify --judge <this folder>`.\n"
      "cmake_minimum_required(VERSION 3.18)\n"
      "project(torch_tidy_verify_bundle LANGUAGES CXX)\n"
      "include(${CMAKE_CURRENT_SOURCE_DIR}/" +
      std::string(layout::CMakeHelpers) + ")\n";
  for (size_t K = 0; K < M.Programs.size(); ++K) {
    const BundleProgram &P = M.Programs[K];
    std::string Name = "program_" + std::to_string(K + 1);
    llvm::Expected<std::vector<std::string>> Options = cmakeOptions(P.Options);
    if (!Options)
      return Options.takeError();
    Text += "\n# " + llvm::StringRef(P.File).split('\n').first.str() + "\nset(" + Name +
            "_options";
    for (const std::string &O : *Options)
      Text += " " + bracket(O);
    Text += ")\nset(" + Name + "_includes";
    for (const BundleInclude &I : P.Includes) {
      if (llvm::StringRef(I.Folder).contains(';'))
        return fail("a bundle cannot carry the folder '" + I.Folder + "' (it holds ';')");
      Text += " " + I.Kind + " " + bracket(I.Folder);
    }
    Text += ")\n";
    for (const BundleFinding &F : M.Findings)
      if (F.Program == K)
        for (const BundleVariant &V : F.Variants)
          if (V.Error.empty())
            Text += "torch_tidy_variant(" + layout::targetName(F.Id, V.Name) + " " +
                    bracket(V.Source) + " " + Name + ")\n";
  }
  return Text;
}

std::string variantsText(const BundleManifest &M) {
  std::string Text;
  for (const BundleFinding &F : M.Findings)
    for (const BundleVariant &V : F.Variants)
      if (V.Error.empty())
        Text += F.Id + " " + V.Name + "\n";
  return Text;
}

std::string settingsText(const BundleSettings &S) {
  return "iterations=" + std::to_string(S.Iterations) + "\nwarmup=" + std::to_string(S.Warmup) +
         "\ntimeout=" + std::to_string(S.Timeout) + "\nrepeat=" + std::to_string(S.Repeat) +
         "\n";
}

/// Every file of the bundle of \p M, apart from the variants' sources.
llvm::Error addFixedFiles(const BundleManifest &M, BundleFiles &Files) {
  llvm::Expected<std::string> CMake = cmakeLists(M);
  if (!CMake)
    return CMake.takeError();
  std::string Manifest = M.text();
  Files.Texts.push_back({layout::Manifest, Manifest});
  Files.Texts.push_back({layout::BundleId, contentHash(Manifest) + "\n"});
  Files.Texts.push_back({layout::Settings, settingsText(M.Settings)});
  Files.Texts.push_back({layout::Variants, variantsText(M)});
  Files.Texts.push_back({"CMakeLists.txt", std::move(*CMake)});
  Files.Texts.push_back({layout::CMakeHelpers, BundleCMakeHelpers});
  Files.Texts.push_back({layout::RunScript, BundleRunScript});
  std::string Probe = probeDir();
  for (const char *F : {"CMakeLists.txt", "include/torch_tidy/probe.h",
                        "include/torch_tidy/probe_impl.h", "include/torch_tidy/torch_pch.h",
                        "src/probe.cpp"}) {
    if (!fs::exists(joinPath(Probe, F)))
      return fail("the probe's sources are incomplete: " + joinPath(Probe, F) + " is missing");
    Files.Copies.push_back({joinPath(Probe, F), std::string("probe/") + F});
  }
  return llvm::Error::success();
}

llvm::Error writeFiles(const std::string &Root, const BundleFiles &Files) {
  auto Prepare = [&](const std::string &Rel) -> llvm::Expected<std::string> {
    std::string Path = joinPath(Root, Rel);
    if (std::error_code EC = fs::create_directories(path::parent_path(Path)))
      return llvm::createStringError(EC, "cannot create a folder for " + Path + ": " +
                                             EC.message());
    return Path;
  };
  for (const std::string &Rel : Files.Folders)
    if (std::error_code EC = fs::create_directories(joinPath(Root, Rel)))
      return llvm::createStringError(EC, "cannot create " + joinPath(Root, Rel) + ": " +
                                             EC.message());
  for (const auto &[Rel, Text] : Files.Texts) {
    llvm::Expected<std::string> Path = Prepare(Rel);
    std::string Error;
    if (!Path)
      return Path.takeError();
    if (!writeAtomically(*Path, Text, Error))
      return fail(Error);
  }
  for (const auto &[From, Rel] : Files.Copies) {
    llvm::Expected<std::string> Path = Prepare(Rel);
    if (!Path)
      return Path.takeError();
    if (std::error_code EC = fs::copy_file(From, *Path))
      return llvm::createStringError(EC, "cannot copy " + From + " into the bundle: " +
                                             EC.message());
  }
  return llvm::errorCodeToError(
      fs::setPermissions(joinPath(Root, layout::RunScript),
                         fs::all_read | fs::all_exe | fs::owner_write));
}

/// Puts the folder \p Made in the place of \p Dir (a bundle or nothing).
llvm::Error swapInto(const std::string &Made, const std::string &Dir) {
  std::string Old;
  if (llvm::Error E = checkBundleFolder(Dir))
    return E;
  if (fs::exists(Dir)) {
    llvm::SmallString<256> Moved;
    fs::createUniquePath(Dir + ".old-%%%%%%", Moved, /*MakeAbsolute=*/false);
    Old = std::string(Moved);
    if (std::error_code EC = fs::rename(Dir, Old))
      return llvm::createStringError(EC, "cannot replace the bundle " + Dir + ": " + EC.message());
  }
  if (std::error_code EC = fs::rename(Made, Dir))
    return llvm::createStringError(EC, "cannot move the bundle to " + Dir + ": " + EC.message());
  if (!Old.empty())
    fs::remove_directories(Old);
  return llvm::Error::success();
}

} // namespace

llvm::Error checkBundleFolder(const std::string &Dir) {
  if (!fs::exists(Dir))
    return llvm::Error::success();
  std::error_code EC;
  bool Empty =
      fs::is_directory(Dir) && fs::directory_iterator(Dir, EC) == fs::directory_iterator();
  if (Empty || fs::exists(joinPath(Dir, layout::Manifest)))
    return llvm::Error::success();
  return fail("'" + Dir + "' exists and is not a verify bundle; remove it or choose another folder");
}

llvm::Expected<BundleManifest> writeBundle(const std::string &Dir, const BundleSettings &Settings,
                                           const std::vector<ProgramInput> &Programs) {
  BundleFiles Files;
  BundleManifest M = manifestFor(Settings, Programs, Files);
  if (llvm::Error E = addFixedFiles(M, Files))
    return std::move(E);
  llvm::SmallString<256> Target(Dir);
  path::remove_dots(Target, /*remove_dot_dot=*/true);
  if (Target.empty() || Target == "/" || Target == ".")
    return fail("'" + Dir + "' cannot be a bundle's folder");
  if (std::error_code EC = fs::create_directories(path::parent_path(Target).empty()
                                                      ? "."
                                                      : path::parent_path(Target)))
    return llvm::createStringError(EC, "cannot create " + Dir + ": " + EC.message());
  llvm::SmallString<256> Made;
  fs::createUniquePath(std::string(Target) + ".tmp-%%%%%%", Made, /*MakeAbsolute=*/false);
  if (std::error_code EC = fs::create_directory(Made))
    return llvm::createStringError(EC, "cannot create " + std::string(Made) + ": " + EC.message());
  llvm::Error E = writeFiles(std::string(Made), Files);
  if (!E)
    E = swapInto(std::string(Made), std::string(Target));
  if (E) {
    fs::remove_directories(Made);
    return std::move(E);
  }
  return M;
}

} // namespace torch_tidy::verify
