//===--- SanitizerDefaults.cpp - ASan options of an instrumented torch-clangd //
//
// Compiled into torch-clangd only in the sanitizer build (cmake
// -DTORCH_TIDY_SANITIZE=ON). clangd's static libraries come from Debian,
// uninstrumented, and are linked into this binary next to our instrumented
// code. LLVM's headers make BumpPtrAllocator poison each new slab and
// unpoison each allocation from it, but only where they are compiled with
// ASan: the linker keeps one copy of each inline function, so an
// instrumented StartNewSlab (ours) poisons slabs whose allocations clangd's
// uninstrumented inline Allocate never unpoisons, and the next memcpy into
// them is reported as use-after-poison although nothing is wrong. The
// allocator's own poisoning is therefore ignored in this binary; every
// check ASan makes by itself (heap, stack and global bounds, use after free,
// leaks) stays on. torch-tidy links clang as a shared library and is not
// affected.
//
//===----------------------------------------------------------------------===//

extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0";
}
