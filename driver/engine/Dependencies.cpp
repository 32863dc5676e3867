//===--- Dependencies.cpp - what a cached artifact was made from ----------===//

#include "driver/engine/Dependencies.h"

#include "base/Hashing.h"

#include "llvm/Support/FileSystem.h"

namespace json = llvm::json;

namespace torch_tidy {

json::Object recordDependencies(const std::map<std::string, std::string> &Files,
                                const std::vector<std::string> &Absent) {
  json::Array FileArray, AbsentArray;
  for (const auto &[Path, Hash] : Files)
    FileArray.push_back(json::Array{Path, Hash});
  for (const std::string &Path : Absent)
    AbsentArray.push_back(Path);
  return json::Object{{"files", std::move(FileArray)},
                      {"absent", std::move(AbsentArray)}};
}

const std::string &FileStateMemo::hash(llvm::StringRef Path) {
  auto [It, New] = Hashes.try_emplace(Path);
  if (New)
    It->second = fileHash(Path);
  return It->second;
}

bool FileStateMemo::exists(llvm::StringRef Path) {
  auto [It, New] = Present.try_emplace(Path, false);
  if (New)
    It->second = llvm::sys::fs::exists(Path);
  return It->second;
}

bool dependenciesUnchanged(const json::Object &Record, FileStateMemo *Memo) {
  const json::Array *Files = Record.getArray("files");
  const json::Array *Absent = Record.getArray("absent");
  if (!Files || !Absent)
    return false;
  for (const json::Value &V : *Files) {
    const json::Array *Pair = V.getAsArray();
    if (!Pair || Pair->size() != 2)
      return false;
    std::optional<llvm::StringRef> Path = (*Pair)[0].getAsString();
    std::optional<llvm::StringRef> Hash = (*Pair)[1].getAsString();
    if (!Path || !Hash || (Memo ? Memo->hash(*Path) : fileHash(*Path)) != *Hash)
      return false;
  }
  for (const json::Value &V : *Absent) {
    std::optional<llvm::StringRef> Path = V.getAsString();
    if (!Path || (Memo ? Memo->exists(*Path) : llvm::sys::fs::exists(*Path)))
      return false;
  }
  return true;
}

std::map<std::string, std::string>
recordedFiles(const json::Object &Record, std::vector<std::string> &Absent) {
  std::map<std::string, std::string> Files;
  if (const json::Array *A = Record.getArray("files"))
    for (const json::Value &V : *A)
      if (const json::Array *Pair = V.getAsArray(); Pair && Pair->size() == 2)
        if (auto Path = (*Pair)[0].getAsString())
          if (auto Hash = (*Pair)[1].getAsString())
            Files[Path->str()] = Hash->str();
  if (const json::Array *A = Record.getArray("absent"))
    for (const json::Value &V : *A)
      if (auto Path = V.getAsString())
        Absent.push_back(Path->str());
  return Files;
}

} // namespace torch_tidy
