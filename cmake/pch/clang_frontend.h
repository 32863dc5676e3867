// Precompiled for the engine and the driver (driver/): clang_tooling.h
// and clang's frontend (ASTUnit, CompilerInstance, the precompiled
// preamble, the preprocessor, ClangTool), which their heaviest files
// include. Only headers from outside this project belong here (a change to
// one of ours would rebuild every file that uses it). The sources still
// include everything they use. See cmake/PrecompiledHeaders.cmake.
#include "clang_tooling.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/PrecompiledPreamble.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/Tooling.h"
