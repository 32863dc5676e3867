//===--- FormatsFuzzer.cpp - arbitrary bytes to every file parser ---------===//
//
// libFuzzer target: the input is the content of a file that torch-tidy
// reads. Every registered parser (FileFormats.cpp) gets the same bytes, so a
// seed for one format still reaches the others.
//
//===----------------------------------------------------------------------===//

#include "test/fuzz/FileFormats.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Bytes(reinterpret_cast<const char *>(Data), Size);
  for (const torch_tidy::fuzz::FileFormat &Format :
       torch_tidy::fuzz::fileFormats())
    Format.Parse(Bytes);
  return 0;
}
