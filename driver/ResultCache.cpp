//===--- ResultCache.cpp - results of unchanged translation units ---------===//

#include "driver/ResultCache.h"

#include "driver/ResultFile.h"
#include "fixits/ApplyFixes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA1.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <set>
#include <sys/time.h>

namespace json = llvm::json;

namespace torchtidy {
namespace {

std::string directoryStamp(llvm::StringRef Dir) {
  llvm::sys::fs::file_status S;
  if (llvm::sys::fs::status(Dir, S))
    return "missing";
  return std::to_string(
      S.getLastModificationTime().time_since_epoch().count());
}

} // namespace

ResultCache::ResultCache(std::string Dir, uint64_t MaxBytes)
    : Dir(std::move(Dir)), MaxBytes(MaxBytes) {}

std::string ResultCache::defaultDir() {
  llvm::SmallString<256> D;
  if (std::optional<std::string> Xdg = llvm::sys::Process::GetEnv("XDG_CACHE_HOME");
      Xdg && !Xdg->empty())
    D = *Xdg;
  else if (!llvm::sys::path::home_directory(D))
    D = "/tmp";
  else
    llvm::sys::path::append(D, ".cache");
  llvm::sys::path::append(D, "torch-tidy", "results");
  return std::string(D);
}

std::string ResultCache::toolIdentity(const char *Argv0, void *MainAddr) {
  std::string Exe = llvm::sys::fs::getMainExecutable(Argv0, MainAddr);
  return std::string(TORCH_TIDY_VERSION) + "/" + fileHash(Exe);
}

std::string ResultCache::key(llvm::StringRef ToolIdentity,
                             const clang::tooling::CompileCommand &Command,
                             llvm::StringRef EffectiveOptions,
                             llvm::StringRef ExtraKey,
                             llvm::StringRef MainFileHash) {
  llvm::SHA1 H;
  auto Add = [&](llvm::StringRef S) {
    H.update(std::to_string(S.size()));
    H.update(":");
    H.update(S);
  };
  Add("torch-tidy result cache 1");
  Add(ToolIdentity);
  Add(Command.Directory);
  Add(Command.Filename);
  for (const std::string &A : Command.CommandLine)
    Add(A);
  Add(EffectiveOptions);
  Add(ExtraKey);
  Add(MainFileHash);
  return llvm::toHex(H.final(), /*LowerCase=*/true);
}

std::optional<TUResult> ResultCache::lookup(llvm::StringRef Key) {
  llvm::SmallString<256> Path(Dir);
  llvm::sys::path::append(Path, Key + ".json");
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buffer)
    return std::nullopt;
  llvm::Expected<json::Value> V = json::parse((*Buffer)->getBuffer());
  if (!V) {
    llvm::consumeError(V.takeError());
    return std::nullopt;
  }
  const json::Object *O = V->getAsObject();
  const json::Array *Deps = O ? O->getArray("files") : nullptr;
  const json::Array *Dirs = O ? O->getArray("directories") : nullptr;
  const json::Value *Result = O ? O->get("result") : nullptr;
  if (!Deps || !Dirs || !Result)
    return std::nullopt;
  for (const json::Value &D : *Deps) {
    const json::Array *Pair = D.getAsArray();
    if (!Pair || Pair->size() != 2)
      return std::nullopt;
    auto P = (*Pair)[0].getAsString();
    auto Hash = (*Pair)[1].getAsString();
    if (!P || !Hash || fileHash(*P) != *Hash)
      return std::nullopt;
  }
  for (const json::Value &D : *Dirs) {
    const json::Array *Pair = D.getAsArray();
    if (!Pair || Pair->size() != 2)
      return std::nullopt;
    auto P = (*Pair)[0].getAsString();
    auto Stamp = (*Pair)[1].getAsString();
    if (!P || !Stamp || directoryStamp(*P) != *Stamp)
      return std::nullopt;
  }
  TUResult R;
  std::string Error;
  if (!fromJSON(*Result, R, Error))
    return std::nullopt;
  // Used: the least recently used entries go first when the cache is full.
  ::utimes(Path.c_str(), nullptr);
  return R;
}

void ResultCache::store(llvm::StringRef Key, const TUResult &R) {
  if (R.Failed || R.Dependencies.empty())
    return;
  if (llvm::sys::fs::create_directories(Dir))
    return;
  json::Array Files, Dirs;
  std::set<std::string> DirSet(R.SearchedDirectories.begin(),
                               R.SearchedDirectories.end());
  for (const auto &[Path, Hash] : R.Dependencies) {
    Files.push_back(json::Array{Path, Hash});
    DirSet.insert(llvm::sys::path::parent_path(Path).str());
  }
  for (const std::string &D : DirSet)
    Dirs.push_back(json::Array{D, directoryStamp(D)});
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  OS << json::Value(json::Object{{"files", std::move(Files)},
                                 {"directories", std::move(Dirs)},
                                 {"result", toJSON(R)}});
  OS.flush();
  llvm::SmallString<256> Path(Dir);
  llvm::sys::path::append(Path, Key + ".json");
  std::string Error;
  if (writeAtomically(Path, Text, Error))
    trim();
}

void ResultCache::trim() {
  struct Entry {
    std::string Path;
    uint64_t Size;
    llvm::sys::TimePoint<> Time;
  };
  std::vector<Entry> Entries;
  uint64_t Total = 0;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC)) {
    llvm::sys::fs::file_status S;
    if (!llvm::StringRef(It->path()).ends_with(".json") ||
        llvm::sys::fs::status(It->path(), S))
      continue;
    Entries.push_back({It->path(), S.getSize(), S.getLastModificationTime()});
    Total += S.getSize();
  }
  if (Total <= MaxBytes)
    return;
  std::sort(Entries.begin(), Entries.end(),
            [](const Entry &A, const Entry &B) { return A.Time < B.Time; });
  for (const Entry &E : Entries) {
    if (Total <= MaxBytes * 8 / 10)
      break;
    if (!llvm::sys::fs::remove(E.Path))
      Total -= E.Size;
  }
}

} // namespace torchtidy
