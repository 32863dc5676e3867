//===--- CacheFolder.cpp - where torch-tidy keeps what it caches ----------===//

#include "base/CacheFolder.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

namespace torch_tidy {

std::string cacheFolder(llvm::StringRef Chosen) {
  if (!Chosen.empty())
    return Chosen.str();
  auto Env = [](const char *Name) {
    return llvm::sys::Process::GetEnv(Name).value_or("");
  };
  if (std::string Own = Env("TORCH_TIDY_CACHE_DIR"); !Own.empty())
    return Own;
  llvm::SmallString<256> Dir;
  if (std::string Xdg = Env("XDG_CACHE_HOME"); !Xdg.empty())
    Dir = Xdg;
  else if (llvm::sys::path::home_directory(Dir))
    llvm::sys::path::append(Dir, ".cache");
  else
    llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, Dir);
  llvm::sys::path::append(Dir, "torch-tidy");
  return std::string(Dir);
}

} // namespace torch_tidy
