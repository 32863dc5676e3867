//===--- AbsenceRecorder.h - the paths a compile looked for in vain -*- C++ -*-===//
//
// A file system that passes everything through and remembers every path that
// was looked up and did not exist: an #include tries each search directory
// in turn, so a header created at one of those paths later would be found
// instead of the one used. A cached artifact stays valid only while all of
// them are still absent.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_DRIVER_ENGINE_ABSENCERECORDER_H
#define TORCH_TIDY_DRIVER_ENGINE_ABSENCERECORDER_H

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <string>
#include <vector>

namespace torch_tidy {

class AbsenceRecorder : public llvm::vfs::ProxyFileSystem {
public:
  explicit AbsenceRecorder(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS)
      : ProxyFileSystem(std::move(FS)) {}

  llvm::ErrorOr<llvm::vfs::Status> status(const llvm::Twine &Path) override {
    auto R = ProxyFileSystem::status(Path);
    note(Path, R.getError());
    return R;
  }

  llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>>
  openFileForRead(const llvm::Twine &Path) override {
    auto R = ProxyFileSystem::openFileForRead(Path);
    note(Path, R.getError());
    return R;
  }

  /// The absent paths recorded so far, absolute, in the order first seen.
  const std::vector<std::string> &paths() const { return Order; }

private:
  void note(const llvm::Twine &Path, std::error_code EC) {
    if (EC != std::errc::no_such_file_or_directory &&
        EC != std::errc::not_a_directory)
      return;
    llvm::SmallString<256> Abs;
    Path.toVector(Abs);
    if (makeAbsolute(Abs))
      return;
    if (Seen.insert(Abs).second)
      Order.push_back(std::string(Abs));
  }

  llvm::StringSet<> Seen;
  std::vector<std::string> Order;
};

} // namespace torch_tidy

#endif
