//===--- ProjectSummaries.cpp - torch-clangd reads the project's summaries ===//
//
// A file open in the editor is one unit, and a call into another unit is
// opaque to its analysis. `torch-tidy -p BUILD` leaves the summaries of
// every unit of the project in the cache folder, by compilation database:
// torch-clangd finds the database of each file as clangd does (the folder
// of --compile-commands-dir, else compile_commands.json in the file's
// folder or a folder above it, or in their build/ folders, else
// compile_flags.txt there) and gives the checks those summaries, leaving out
// the units whose main files changed since. A FunctionSummaries option in
// .clangd or .clang-tidy wins. Which summaries a file's analysis used is
// said in clangd's log, once per file and state.
//
//===----------------------------------------------------------------------===//

#include "base/CacheFolder.h"
#include "checks/analysis/ProjectSummaries.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Chrono.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <mutex>
#include <string>

namespace {

/// The compilation database clangd reads for \p MainFile, or "".
std::string databaseFor(llvm::StringRef MainFile,
                        const std::string &CompileCommandsDir) {
  auto Found = [](llvm::StringRef Dir, llvm::StringRef Name) {
    llvm::SmallString<256> P(Dir);
    llvm::sys::path::append(P, Name);
    return llvm::sys::fs::exists(P) ? std::string(P) : std::string();
  };
  if (!CompileCommandsDir.empty()) {
    std::string DB = Found(CompileCommandsDir, "compile_commands.json");
    return DB.empty() ? Found(CompileCommandsDir, "compile_flags.txt") : DB;
  }
  llvm::SmallString<256> Dir(MainFile);
  llvm::sys::fs::make_absolute(Dir);
  for (llvm::StringRef D = llvm::sys::path::parent_path(Dir); !D.empty();
       D = llvm::sys::path::parent_path(D))
    for (const char *Name : {"compile_commands.json",
                             "build/compile_commands.json",
                             "compile_flags.txt"})
      if (std::string DB = Found(D, Name); !DB.empty())
        return DB;
  return "";
}

/// A line of clangd's log (its format: level, time, message).
void logLine(const std::string &Message) {
  auto Now = std::chrono::system_clock::now();
  std::string Line =
      llvm::formatv("I[{0:%H:%M:%S.%L}] {1}\n", Now, Message).str();
  llvm::errs() << Line;
  llvm::errs().flush();
}

/// Says \p Message of \p MainFile in the log, unless it was the last thing
/// said of it.
void logOnce(llvm::StringRef MainFile, const std::string &Message) {
  static std::mutex Lock;
  static llvm::StringMap<std::string> Said;
  std::lock_guard<std::mutex> Guard(Lock);
  std::string &Last = Said[MainFile];
  if (Last == Message)
    return;
  Last = Message;
  logLine(Message);
}

} // namespace

namespace torch_tidy::clangd {

/// Has the checks read the summaries of the last project run over each
/// file's compilation database.
void useProjectSummaries(std::string CompileCommandsDir) {
  analysis::setDefaultSummaries(
      [CompileCommandsDir](llvm::StringRef MainFile)
          -> std::shared_ptr<const analysis::FunctionSummaries> {
        if (MainFile.empty())
          return nullptr;
        std::string DB = databaseFor(MainFile, CompileCommandsDir);
        if (DB.empty())
          return nullptr;
        std::string File = analysis::projectSummariesFile(cacheFolder(), DB);
        if (!llvm::sys::fs::exists(File)) {
          logOnce(MainFile, "torch-tidy: function summaries for " +
                                MainFile.str() + ": none; no project run over " +
                                DB + " has left any");
          return nullptr;
        }
        std::string Error;
        std::shared_ptr<const analysis::ProjectSummaries> P =
            analysis::loadProjectSummaries(File, Error);
        if (!P) {
          logOnce(MainFile, "torch-tidy: " + Error);
          return nullptr;
        }
        std::string Message =
            "torch-tidy: function summaries for " + MainFile.str() +
            ": the last project run's over " + P->Database + " (" + File +
            "): " + std::to_string(P->Units - P->Changed.size()) + " of " +
            std::to_string(P->Units) + " units";
        for (size_t I = 0; I < P->Changed.size(); ++I)
          Message += (I ? ", " : "; left out, changed since: ") + P->Changed[I];
        logOnce(MainFile, Message);
        return P->Summaries;
      });
}

} // namespace torch_tidy::clangd
