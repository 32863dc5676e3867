//===--- Journal.h - edit a user's file in place and always undo it -------===//
//
// Before the first edit, the file's bytes are saved in a journal folder;
// every edit replaces the file atomically; restore() puts the saved bytes
// back and removes the journal. restore() runs on a normal end, on errors
// (the destructor), and on SIGINT/SIGTERM/SIGHUP (a signal handler that
// uses only async-signal-safe calls). A journal left by a killed run is
// restored by recover() at the next start.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_RUNTIME_VERIFY_JOURNAL_H
#define TORCH_TIDY_RUNTIME_VERIFY_JOURNAL_H

#include "llvm/Support/Error.h"

#include <string>

namespace torch_tidy {
namespace verify {

class InPlaceJournal {
public:
  /// The journal folder of a build folder.
  static std::string folderFor(const std::string &BuildDir);

  /// Restores the file a leftover journal in `BuildDir` names; returns the
  /// restored path, or "" when there was no journal.
  static llvm::Expected<std::string> recover(const std::string &BuildDir);

  InPlaceJournal() = default;
  InPlaceJournal(const InPlaceJournal &) = delete;
  InPlaceJournal &operator=(const InPlaceJournal &) = delete;
  ~InPlaceJournal();

  /// Saves `File`'s bytes in the journal of `BuildDir` and arms the signal
  /// handlers.
  llvm::Error begin(const std::string &BuildDir, const std::string &File);
  /// Replaces the file's contents (atomically).
  llvm::Error write(const std::string &Text);
  /// Puts the original bytes back and removes the journal.
  llvm::Error restore();

private:
  bool Active = false;
};

} // namespace verify
} // namespace torch_tidy

#endif
