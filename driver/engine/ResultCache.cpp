//===--- ResultCache.cpp - results of unchanged translation units ---------===//

#include "driver/engine/ResultCache.h"

#include "base/AtomicWrite.h"
#include "base/Hashing.h"
#include "base/ResultFile.h"
#include "driver/engine/Dependencies.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <sys/time.h>

namespace json = llvm::json;

namespace torch_tidy {

ResultCache::ResultCache(std::string Dir, uint64_t MaxBytes)
    : Dir(std::move(Dir)), MaxBytes(MaxBytes) {}

std::string ResultCache::toolIdentity(const char *Argv0, void *MainAddr) {
  std::string Exe = llvm::sys::fs::getMainExecutable(Argv0, MainAddr);
  return std::string(TORCH_TIDY_VERSION) + "/" + fileHash(Exe);
}

std::string ResultCache::key(llvm::StringRef ToolIdentity,
                             const clang::tooling::CompileCommand &Command,
                             llvm::StringRef EffectiveOptions,
                             llvm::StringRef ExtraKey,
                             llvm::StringRef MainFileHash) {
  CacheKey K("torch-tidy result cache 1");
  K.add(ToolIdentity);
  K.add(Command.Directory);
  K.add(Command.Filename);
  for (const std::string &A : Command.CommandLine)
    K.add(A);
  K.add(EffectiveOptions);
  K.add(ExtraKey);
  K.add(MainFileHash);
  return K.hex();
}

std::optional<TUResult> ResultCache::lookup(llvm::StringRef Key,
                                            FileStateMemo *Memo) {
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
  const json::Value *Result = O ? O->get("result") : nullptr;
  if (!Result || !dependenciesUnchanged(*O, Memo))
    return std::nullopt;
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
  json::Object Entry = recordDependencies(R.Dependencies, R.AbsentPaths);
  Entry["result"] = toJSON(R);
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  OS << json::Value(std::move(Entry));
  OS.flush();
  llvm::SmallString<256> Path(Dir);
  llvm::sys::path::append(Path, Key + ".json");
  std::string Error;
  if (writeAtomically(Path, Text, Error))
    trim();
}

void ResultCache::trim() { trimCacheDirectory(Dir, MaxBytes); }

void trimCacheDirectory(llvm::StringRef Dir, uint64_t MaxBytes) {
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
    if (llvm::sys::fs::status(It->path(), S) ||
        S.type() != llvm::sys::fs::file_type::regular_file)
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

} // namespace torch_tidy
