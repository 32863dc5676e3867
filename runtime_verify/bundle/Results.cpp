//===--- Results.cpp - how each step of a bundle's run ended --------------===//
#include "runtime_verify/bundle/Results.h"

#include "base/AtomicWrite.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

namespace torch_tidy::verify {

std::string statusLine(const ProcessResult &R, unsigned TimeoutSeconds) {
  if (R.TimedOut)
    return "timeout " + std::to_string(TimeoutSeconds);
  if (R.Signal)
    return "signal " + std::to_string(R.Signal);
  // A program that could not be started is reported as the shell does.
  return "exit " + std::to_string(R.Started ? R.ExitCode : 127);
}

llvm::Error writeStatus(const std::string &Path, const ProcessResult &R,
                        unsigned TimeoutSeconds) {
  std::string Error;
  if (!writeAtomically(Path, statusLine(R, TimeoutSeconds) + "\n", Error))
    return llvm::createStringError(llvm::inconvertibleErrorCode(), Error);
  return llvm::Error::success();
}

llvm::Expected<std::optional<ProcessResult>> readStatus(const std::string &Path) {
  if (!llvm::sys::fs::exists(Path))
    return std::nullopt;
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return llvm::createStringError(Buffer.getError(), "cannot read " + Path + ": " +
                                                          Buffer.getError().message());
  llvm::StringRef Line = (*Buffer)->getBuffer().trim();
  auto [Word, Number] = Line.split(' ');
  unsigned N = 0;
  ProcessResult R;
  R.Started = true;
  bool Known = Word == "exit" || Word == "signal" || Word == "timeout";
  if (!Known || Number.getAsInteger(10, N) || (Word == "exit" && N > 255) ||
      (Word == "signal" && (N == 0 || N > 128)))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "the status file " + Path + " is damaged (it reads '" +
                                       Line.take_front(40).str() + "')");
  if (Word == "exit")
    R.ExitCode = static_cast<int>(N);
  else if (Word == "signal")
    R.Signal = static_cast<int>(N);
  else
    R.TimedOut = true;
  return R;
}

} // namespace torch_tidy::verify
