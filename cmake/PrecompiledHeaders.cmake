# Precompiled headers (TORCH_TIDY_PCH, on by default). Most of each file's
# compile time goes to parsing the same clang and LLVM headers; with these
# they are parsed once per target instead. Three sets, in cmake/pch/:
#
#   clang_ast.h       clang's AST, the source manager, the lexer and the CFG:
#                     the checks and analyses (checks/), fixits/Edits.cpp
#                     and the analysis dump tool
#   clang_tooling.h   LLVM's support library, clang-tidy's diagnostics,
#                     replacements and the compilation database: base/,
#                     fixits/ApplyFixes.cpp and runtime_verify/
#   clang_frontend.h  clang_tooling.h and clang's frontend (ASTUnit,
#                     CompilerInstance, the precompiled preamble, ClangTool):
#                     the engine and the driver
#
# Each target gets the set that its files' includes call for: a larger one
# costs the files that do not need it (clang_ast.h says why the AST matchers
# are not in it).
#
# A precompiled header is only valid for the flags and definitions it was
# built with, so only targets with identical flags and definitions that want
# the same set share one (REUSE_FROM); every other target (definitions of
# its own, or an executable: -fPIE where the libraries have -fPIC) builds
# its own.
#
# torch-clangd and the fuzzers have none: few files each (torch-clangd's
# five take 7 s of CPU time at -O3), against 2-6 s to build a header.
#
# The headers are added to every file of a target as if included first; the
# sources still include everything they use, and a TORCH_TIDY_PCH=OFF build
# compiles them as they are. GCC builds them too (as .gch files); a GCC that
# finds one invalid says so (-Winvalid-pch) and parses the headers instead.

set(_torch_tidy_pch_dir ${CMAKE_CURRENT_LIST_DIR}/pch)

# The checks and analyses: nearly every file includes clang's AST headers,
# and so does fixits/Edits.cpp, with the same flags. torchTidyChecks links
# torchTidyFixits, so torchTidyFixits builds the header and torchTidyChecks
# reuses it (the other way round would be a dependency cycle).
target_precompile_headers(torchTidyFixits PRIVATE ${_torch_tidy_pch_dir}/clang_ast.h)
target_precompile_headers(torchTidyChecks REUSE_FROM torchTidyFixits)
target_precompile_headers(torch-tidy-analysis-dump PRIVATE ${_torch_tidy_pch_dir}/clang_ast.h)

# base/ and fixits/ApplyFixes.cpp: the same flags as well, but light files,
# which clang_ast.h would cost more than it saves.
target_precompile_headers(torchTidyBase PRIVATE ${_torch_tidy_pch_dir}/clang_tooling.h)
target_precompile_headers(torchTidyApplyFixes REUSE_FROM torchTidyBase)

# Definitions of their own or executables: one header each.
target_precompile_headers(torchTidyVerify PRIVATE ${_torch_tidy_pch_dir}/clang_tooling.h)
target_precompile_headers(torchTidyEngine PRIVATE ${_torch_tidy_pch_dir}/clang_frontend.h)
target_precompile_headers(torch-tidy PRIVATE ${_torch_tidy_pch_dir}/clang_frontend.h)

# ccache caches a file that uses a precompiled header only with the
# sloppiness pch_defines,time_macros (ccache's manual, "Precompiled
# headers"); otherwise it compiles every such file again ("could not use
# precompiled header"). With ccache as the compiler launcher, these targets
# run it with those two added to the sloppiness it is configured with. No
# source of this project uses __DATE__, __TIME__ or __TIMESTAMP__.
if(CMAKE_CXX_COMPILER_LAUNCHER)
  list(GET CMAKE_CXX_COMPILER_LAUNCHER 0 _torch_tidy_launcher)
  get_filename_component(_torch_tidy_launcher_name "${_torch_tidy_launcher}" NAME)
  if(_torch_tidy_launcher_name STREQUAL "ccache")
    execute_process(COMMAND ${_torch_tidy_launcher} --get-config sloppiness
                    OUTPUT_VARIABLE _torch_tidy_sloppiness
                    OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    string(REPLACE " " "" _torch_tidy_sloppiness "${_torch_tidy_sloppiness},pch_defines,time_macros")
    string(REGEX REPLACE "^," "" _torch_tidy_sloppiness "${_torch_tidy_sloppiness}")
    foreach(target torchTidyFixits torchTidyChecks torch-tidy-analysis-dump
                   torchTidyBase torchTidyApplyFixes torchTidyVerify
                   torchTidyEngine torch-tidy)
      set_property(TARGET ${target} PROPERTY CXX_COMPILER_LAUNCHER
        ${CMAKE_COMMAND} -E env "CCACHE_SLOPPINESS=${_torch_tidy_sloppiness}"
        ${CMAKE_CXX_COMPILER_LAUNCHER})
    endforeach()
  endif()
endif()
