// Precompiled for base/, fixits/ApplyFixes.cpp and runtime_verify/, and
// the start of clang_frontend.h: LLVM's support library, clang-tidy's
// diagnostics, replacements and the compilation database, which most of
// those files include. Only headers from outside this project belong here
// (a change to one of ours would rebuild every file that uses it). The
// sources still include everything they use. See
// cmake/PrecompiledHeaders.cmake.
#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Core/Replacement.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
