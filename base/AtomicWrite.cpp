//===--- AtomicWrite.cpp - files replaced whole or not at all -------------===//

#include "base/AtomicWrite.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"

#include <csignal>
#include <pthread.h>
#include <unistd.h>

namespace torch_tidy {

bool writeAtomically(llvm::StringRef Path, llvm::StringRef Text,
                     std::string &Error) {
  if (Path == "-") {
    llvm::outs() << Text;
    llvm::outs().flush();
    return true;
  }
  llvm::SmallString<256> Dir(Path);
  llvm::sys::path::remove_filename(Dir);
  if (Dir.empty())
    Dir = ".";
  llvm::SmallString<256> Model(Dir);
  llvm::sys::path::append(Model, "." + llvm::sys::path::filename(Path).str() +
                                     ".torch-tidy-%%%%%%");
  int FD = -1;
  llvm::SmallString<256> Temp;
  // No signal between creating the temporary file and registering it for
  // removal on a signal: an interrupted run leaves no stray file.
  sigset_t Stop, Old;
  sigemptyset(&Stop);
  for (int Sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT})
    sigaddset(&Stop, Sig);
  pthread_sigmask(SIG_BLOCK, &Stop, &Old);
  std::error_code CreateEC = llvm::sys::fs::createUniqueFile(Model, FD, Temp);
  if (!CreateEC)
    llvm::sys::RemoveFileOnSignal(Temp);
  pthread_sigmask(SIG_SETMASK, &Old, nullptr);
  if (CreateEC) {
    Error = "cannot write '" + Path.str() + "': " + CreateEC.message();
    return false;
  }
  auto Fail = [&](const std::string &Why) {
    llvm::sys::fs::remove(Temp);
    llvm::sys::DontRemoveFileOnSignal(Temp);
    Error = "cannot write '" + Path.str() + "': " + Why;
    return false;
  };
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Text;
    OS.flush();
    if (OS.has_error()) {
      std::string Why = OS.error().message();
      OS.clear_error();
      return Fail(Why);
    }
  }
  llvm::sys::fs::file_status Status;
  if (!llvm::sys::fs::status(Path, Status)) {
    llvm::sys::fs::setPermissions(Temp, Status.permissions());
    // Keep the owner where we may (running as root on another user's file).
    if (::chown(Temp.c_str(), Status.getUser(), Status.getGroup()) != 0) {
      // Not permitted: the file keeps the user that runs the tool.
    }
  } else {
    llvm::sys::fs::setPermissions(Temp,
                                  static_cast<llvm::sys::fs::perms>(0644));
  }
  if (std::error_code EC = llvm::sys::fs::rename(Temp, Path))
    return Fail(EC.message());
  llvm::sys::DontRemoveFileOnSignal(Temp);
  return true;
}

} // namespace torch_tidy
