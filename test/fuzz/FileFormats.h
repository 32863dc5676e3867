//===--- FileFormats.h - every file format torch-tidy reads ---------------===//
//
// The parsers that FormatsFuzzer feeds arbitrary bytes to. Each takes the
// whole content of one file and must cope with anything: a malformed file is
// an error for the user, never a crash.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_TEST_FUZZ_FILEFORMATS_H
#define TORCH_TIDY_TEST_FUZZ_FILEFORMATS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace torch_tidy::fuzz {

struct FileFormat {
  const char *Name;                  // what the file is, e.g. ".clang-tidy"
  void (*Parse)(llvm::StringRef Bytes); // parses it and uses the result
};

// Every registered format (FileFormats.cpp).
llvm::ArrayRef<FileFormat> fileFormats();

} // namespace torch_tidy::fuzz

#endif
