//===--- Hashing.cpp - content hashes and cache keys ----------------------===//

#include "base/Hashing.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/xxhash.h"

namespace torch_tidy {

std::string contentHash(llvm::StringRef Text) {
  return llvm::utohexstr(llvm::xxh3_64bits(Text), /*LowerCase=*/true) + ":" +
         std::to_string(Text.size());
}

std::string fileHash(llvm::StringRef Path) {
  // Only regular files: a path in a damaged cache entry that names a device
  // or a FIFO must not block the run.
  llvm::sys::fs::file_status Status;
  if (llvm::sys::fs::status(Path, Status) ||
      Status.type() != llvm::sys::fs::file_type::regular_file)
    return "";
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return "";
  return contentHash((*Buffer)->getBuffer());
}

void CacheKey::add(llvm::StringRef Part) {
  H.update(std::to_string(Part.size()));
  H.update(":");
  H.update(Part);
}

std::string CacheKey::hex() {
  return llvm::toHex(H.final(), /*LowerCase=*/true);
}

} // namespace torch_tidy
