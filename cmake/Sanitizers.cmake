# Sanitizer and fuzzing builds (TORCH_TIDY_SANITIZE, TORCH_TIDY_FUZZ).
#
# Only torch-tidy's own code is instrumented: LLVM and clang come from
# Debian's uninstrumented libraries, which AddressSanitizer tolerates (its
# allocator still sees every malloc and free they make).
#
# The plugin cannot carry a sanitizer runtime of its own: clang-tidy-19 is not
# instrumented, so the ASan runtime has to be in the process before anything
# else. For the tests this build writes bin/clang-tidy-asan, a wrapper that
# preloads clang's shared ASan runtime (it carries the UBSan handlers too)
# into clang-tidy-19, and points the test suite at it.

if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR "TORCH_TIDY_SANITIZE and TORCH_TIDY_FUZZ need clang++")
endif()

set(TORCH_TIDY_SANITIZER_FLAGS
  -fsanitize=address,undefined
  # Any UBSan report stops the process, so a test cannot pass over one.
  -fno-sanitize-recover=all
  -fno-omit-frame-pointer
  -gline-tables-only)
if(TORCH_TIDY_FUZZ)
  # Coverage feedback for libFuzzer, from our code only. In the tools that
  # are not fuzzers the runtime's no-op callbacks take it.
  list(APPEND TORCH_TIDY_SANITIZER_FLAGS -fsanitize=fuzzer-no-link)
endif()
add_compile_options(${TORCH_TIDY_SANITIZER_FLAGS})
add_link_options(-fsanitize=address,undefined)

execute_process(
  COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libclang_rt.asan-x86_64.so
  OUTPUT_VARIABLE TORCH_TIDY_ASAN_RUNTIME OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT EXISTS "${TORCH_TIDY_ASAN_RUNTIME}")
  message(FATAL_ERROR "clang's shared ASan runtime was not found "
                      "(install libclang-rt-19-dev)")
endif()

find_program(TORCH_TIDY_HOST_CLANG_TIDY NAMES clang-tidy-19
             HINTS ${LLVM_TOOLS_BINARY_DIR} REQUIRED)
set(TORCH_TIDY_ASAN_CLANG_TIDY ${CMAKE_BINARY_DIR}/bin/clang-tidy-asan)
configure_file(${CMAKE_CURRENT_LIST_DIR}/clang-tidy-asan.in
               ${TORCH_TIDY_ASAN_CLANG_TIDY}
               FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE
                                GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE
               @ONLY)
# test/CMakeLists.txt's find_program keeps a value that is already set.
set(CLANG_TIDY_EXECUTABLE ${TORCH_TIDY_ASAN_CLANG_TIDY} CACHE FILEPATH
    "clang-tidy that loads the plugin in tests" FORCE)
