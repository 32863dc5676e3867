//===--- IncludeScan.cpp - which files a translation unit reaches ---------===//

#include "driver/run/IncludeScan.h"

#include "driver/report/SourceFiles.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

namespace torch_tidy {

bool isTorchHeaderName(llvm::StringRef Spelled) {
  for (auto It = llvm::sys::path::begin(Spelled),
            End = llvm::sys::path::end(Spelled);
       It != End; ++It) {
    llvm::StringRef C = *It;
    if (C == "torch" || C == "ATen" || C == "c10" || C == "caffe2")
      return true;
  }
  return false;
}

namespace {

bool mentionsTorch(llvm::StringRef Text) {
  return Text.contains("torch") || Text.contains("ATen") ||
         Text.contains("c10") || Text.contains("at::") ||
         Text.contains("namespace at");
}

// The include directories of a command, in search order, and forced includes.
void searchPaths(const clang::tooling::CompileCommand &C,
                 std::vector<std::string> &Quote,
                 std::vector<std::string> &Angled,
                 std::vector<std::string> &Forced) {
  const std::vector<std::string> &Args = C.CommandLine;
  std::vector<std::string> System, After;
  for (size_t I = 0; I < Args.size(); ++I) {
    llvm::StringRef A = Args[I];
    auto Take = [&](llvm::StringRef Flag, std::vector<std::string> &Into) {
      if (!A.starts_with(Flag))
        return false;
      std::string Dir = A.drop_front(Flag.size()).str();
      if (Dir.empty() && I + 1 < Args.size())
        Dir = Args[++I];
      if (!Dir.empty())
        Into.push_back(SourceFiles::absolute(Dir, C.Directory));
      return true;
    };
    if (Take("-iquote", Quote) || Take("-isystem", System) ||
        Take("-idirafter", After) || Take("-include", Forced) ||
        Take("--include-directory=", Angled) || Take("-I", Angled))
      continue;
  }
  Angled.insert(Angled.end(), System.begin(), System.end());
  Angled.insert(Angled.end(), After.begin(), After.end());
  // Where a compiler looks by default for libraries a user installed.
  Angled.push_back("/usr/local/include");
  Angled.push_back("/usr/include");
}

std::string findIn(const std::vector<std::string> &Dirs, llvm::StringRef Name) {
  for (const std::string &D : Dirs) {
    llvm::SmallString<256> P(D);
    llvm::sys::path::append(P, Name);
    if (llvm::sys::fs::is_regular_file(P))
      return SourceFiles::absolute(P);
  }
  return "";
}

} // namespace

const IncludeScanner::FileFacts &
IncludeScanner::facts(const std::string &Path) {
  FileFacts &F = Cache[Path];
  if (F.Read)
    return F;
  F.Read = true;
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buffer) {
    F.MentionsTorch = true; // unreadable: cannot rule anything out
    return F;
  }
  llvm::StringRef Text = (*Buffer)->getBuffer();
  F.MentionsTorch = mentionsTorch(Text);
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  Text.split(Lines, '\n');
  for (llvm::StringRef Line : Lines) {
    llvm::StringRef L = Line.ltrim();
    if (!L.consume_front("#"))
      continue;
    L = L.ltrim();
    if (!(L.consume_front("include_next") || L.consume_front("include") ||
          L.consume_front("import")))
      continue;
    L = L.ltrim();
    if (L.starts_with("<") || L.starts_with("\"")) {
      char Close = L.front() == '<' ? '>' : '"';
      size_t End = L.find(Close, 1);
      if (End == llvm::StringRef::npos)
        continue;
      F.Includes.push_back({L.slice(1, End).str(), Close == '>'});
    } else if (!L.empty()) {
      F.HasComputedInclude = true;
    }
  }
  return F;
}

IncludeScanner::Reach
IncludeScanner::scan(const clang::tooling::CompileCommand &Command) {
  Reach R;
  std::vector<std::string> Quote, Angled, Forced;
  searchPaths(Command, Quote, Angled, Forced);
  std::vector<std::string> Work;
  Work.push_back(SourceFiles::absolute(Command.Filename, Command.Directory));
  for (const std::string &F : Forced)
    Work.push_back(F);
  while (!Work.empty()) {
    std::string Path = Work.back();
    Work.pop_back();
    if (!R.Files.insert(Path).second)
      continue;
    const FileFacts &F = facts(Path);
    if (F.MentionsTorch || F.HasComputedInclude)
      R.MayReachTorch = true;
    llvm::StringRef Dir = llvm::sys::path::parent_path(Path);
    for (const auto &[Name, IsAngled] : F.Includes) {
      if (isTorchHeaderName(Name)) {
        R.MayReachTorch = true;
        continue;
      }
      std::string Found;
      if (!IsAngled) {
        std::vector<std::string> Dirs{Dir.str()};
        Dirs.insert(Dirs.end(), Quote.begin(), Quote.end());
        Dirs.insert(Dirs.end(), Angled.begin(), Angled.end());
        Found = findIn(Dirs, Name);
      } else {
        Found = findIn(Angled, Name);
      }
      // Not found: a header of the compiler's own installation (the C and
      // C++ standard libraries), or one that does not exist (the compiler
      // reports it). Neither is LibTorch, whose names were caught above.
      if (!Found.empty())
        Work.push_back(Found);
    }
  }
  return R;
}

} // namespace torch_tidy
