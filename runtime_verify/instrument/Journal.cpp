//===--- Journal.cpp - edit a user's file in place and always undo it -----===//
#include "runtime_verify/instrument/Journal.h"
#include "base/Paths.h"
#include "base/Process.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace torch_tidy {
namespace verify {

namespace fs = llvm::sys::fs;

namespace {

// What the signal handler needs, prepared before any edit. Only read in the
// handler.
struct Armed {
  std::string File, Temp, Original, Target, Folder;
  std::string Bytes;
  mode_t Mode = 0644;
};
Armed *Current = nullptr;
// Records that a handler may still hold once restored: never freed, but kept
// reachable (so LeakSanitizer does not count them as leaks). The list itself
// is never destroyed either: a global vector would be freed by the static
// destructors that run before the leak check at exit.
std::vector<Armed *> *const Retired = new std::vector<Armed *>();
volatile sig_atomic_t Restoring = 0;

bool writeAll(int Fd, const char *Data, size_t Size) {
  while (Size) {
    ssize_t N = ::write(Fd, Data, Size);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return false;
    Data += N;
    Size -= static_cast<size_t>(N);
  }
  return true;
}

// Async-signal-safe: writes Bytes to Temp and renames it over Path.
bool replaceFile(const char *Path, const char *Temp, const char *Data, size_t Size, mode_t Mode) {
  int Fd = ::open(Temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, Mode);
  if (Fd < 0)
    return false;
  bool Ok = writeAll(Fd, Data, Size) && ::fsync(Fd) == 0;
  Ok = (::close(Fd) == 0) && Ok;
  if (Ok)
    Ok = ::rename(Temp, Path) == 0;
  if (!Ok)
    ::unlink(Temp);
  return Ok;
}

// Async-signal-safe restore of the armed file, then the journal goes.
bool restoreArmed(const Armed &A) {
  if (!replaceFile(A.File.c_str(), A.Temp.c_str(), A.Bytes.data(), A.Bytes.size(), A.Mode))
    return false;
  ::unlink(A.Target.c_str());
  ::unlink(A.Original.c_str());
  ::rmdir(A.Folder.c_str());
  return true;
}

void say(const char *Text) { (void)!::write(STDERR_FILENO, Text, std::strlen(Text)); }

void onSignal(int Sig) {
  if (!Restoring && Current) {
    Restoring = 1;
    if (int Child = currentChildPid())
      ::kill(Child, SIGTERM);
    say("torch-tidy verify: interrupted; restoring ");
    say(Current->File.c_str());
    say(restoreArmed(*Current) ? "\n" : " FAILED (the journal is kept)\n");
  }
  ::signal(Sig, SIG_DFL);
  ::raise(Sig);
}

void setHandlers(bool On) {
  struct sigaction SA;
  std::memset(&SA, 0, sizeof SA);
  SA.sa_handler = On ? onSignal : SIG_DFL;
  sigemptyset(&SA.sa_mask);
  for (int Sig : {SIGINT, SIGTERM, SIGHUP})
    ::sigaction(Sig, &SA, nullptr);
}

llvm::Error error(const std::string &Message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Message);
}

bool writeDurably(const std::string &Path, llvm::StringRef Text) {
  std::string Temp = Path + ".tmp";
  return replaceFile(Path.c_str(), Temp.c_str(), Text.data(), Text.size(), 0644);
}

} // namespace

std::string InPlaceJournal::folderFor(const std::string &BuildDir) {
  return joinPath(BuildDir, ".torch-tidy-verify-journal");
}

llvm::Expected<std::string> InPlaceJournal::recover(const std::string &BuildDir) {
  std::string Folder = folderFor(BuildDir);
  if (!fs::is_directory(Folder))
    return "";
  std::string TargetFile = joinPath(Folder, "target"), OriginalFile = joinPath(Folder, "original");
  auto Target = llvm::MemoryBuffer::getFile(TargetFile);
  if (!Target) {
    // The run died before its first edit: nothing to restore.
    fs::remove(OriginalFile);
    fs::remove(joinPath(Folder, "original.tmp"));
    fs::remove(Folder);
    return "";
  }
  auto Original = llvm::MemoryBuffer::getFile(OriginalFile, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
  if (!Original)
    return error("the journal " + Folder + " names " + (*Target)->getBuffer().str() +
                 " but holds no original; restore it by hand");
  Armed A;
  A.File = (*Target)->getBuffer().str();
  A.Temp = A.File + ".torch-tidy-restore";
  A.Original = OriginalFile;
  A.Target = TargetFile;
  A.Folder = Folder;
  A.Bytes = (*Original)->getBuffer().str();
  struct stat St;
  if (::stat(A.File.c_str(), &St) == 0)
    A.Mode = St.st_mode & 07777;
  if (!restoreArmed(A))
    return error("cannot restore " + A.File + " from the journal " + Folder + ": " +
                 std::strerror(errno));
  return A.File;
}

InPlaceJournal::~InPlaceJournal() {
  if (Active)
    llvm::consumeError(restore());
}

llvm::Error InPlaceJournal::begin(const std::string &BuildDir, const std::string &File) {
  auto Original = llvm::MemoryBuffer::getFile(File, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
  if (!Original)
    return error("cannot read " + File + ": " + Original.getError().message());
  auto *A = new Armed();
  llvm::SmallString<256> Abs(File);
  fs::make_absolute(Abs);
  A->File = std::string(Abs);
  A->Temp = A->File + ".torch-tidy-restore";
  A->Folder = folderFor(BuildDir);
  A->Original = joinPath(A->Folder, "original");
  A->Target = joinPath(A->Folder, "target");
  A->Bytes = (*Original)->getBuffer().str();
  struct stat St;
  if (::stat(A->File.c_str(), &St) == 0)
    A->Mode = St.st_mode & 07777;
  if (std::error_code EC = fs::create_directories(A->Folder)) {
    std::string Why = "cannot create the journal " + A->Folder + ": " + EC.message();
    delete A;
    return error(Why);
  }
  // The original first, then the name of the file it belongs to: a journal
  // with a target always has the bytes to restore.
  if (!writeDurably(A->Original, A->Bytes) || !writeDurably(A->Target, A->File)) {
    std::string Why = std::strerror(errno);
    ::unlink(A->Original.c_str());
    ::rmdir(A->Folder.c_str());
    delete A;
    return error("cannot write the journal: " + Why);
  }
  Current = A;
  Active = true;
  setHandlers(true);
  return llvm::Error::success();
}

llvm::Error InPlaceJournal::write(const std::string &Text) {
  if (!Active || !Current)
    return error("no journal is open");
  std::string Temp = Current->File + ".torch-tidy-edit";
  if (!replaceFile(Current->File.c_str(), Temp.c_str(), Text.data(), Text.size(), Current->Mode))
    return error("cannot write " + Current->File + ": " + std::strerror(errno));
  return llvm::Error::success();
}

llvm::Error InPlaceJournal::restore() {
  if (!Active || !Current)
    return llvm::Error::success();
  // Signals wait until the bytes are back.
  sigset_t Block, Old;
  sigemptyset(&Block);
  for (int Sig : {SIGINT, SIGTERM, SIGHUP})
    sigaddset(&Block, Sig);
  sigprocmask(SIG_BLOCK, &Block, &Old);
  bool Ok = restoreArmed(*Current);
  std::string File = Current->File;
  if (Ok) {
    Active = false;
    Retired->push_back(Current); // left alone: a handler may still hold it
    Current = nullptr;
    setHandlers(false);
  }
  sigprocmask(SIG_SETMASK, &Old, nullptr);
  if (!Ok)
    return error("cannot restore " + File + " (its journal is kept in " +
                 folderFor("") + " of the build folder)");
  return llvm::Error::success();
}

} // namespace verify
} // namespace torch_tidy
