//===--- PreambleBodies.cpp - keep the user's function bodies in preambles ===//
//
// clangd parses a file's leading #includes once into a preamble, skipping
// every function body in them, and then only the file's own code on each
// edit. torch-tidy skips only the bodies in system headers: the analyses read
// the bodies of the user's own functions wherever they are defined (H of a
// call to a helper defined in a project header is the H of what its body
// returns; G and O walk every function of the unit). With clangd's preamble
// a finding that depends on such a body would differ between the editor and
// torch-tidy.
//
// So torch-clangd keeps the bodies of functions outside system headers in
// the preamble and skips the rest as clangd does (clangd's own answer is
// asked for those). The preamble is built by clang::PrecompiledPreamble::
// Build, which clangd's Preamble.cpp calls with its callbacks; the link wraps
// that call (`--wrap`, see CMakeLists.txt) to hand Build the same callbacks
// with this one answer changed.
//
//===----------------------------------------------------------------------===//

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclBase.h"
#include "clang/AST/DeclGroup.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/PrecompiledPreamble.h"
#include "clang/Lex/PPCallbacks.h"

using namespace clang;

namespace {

/// clangd's preamble callbacks, except that bodies outside system headers
/// are parsed.
class KeepUserBodies : public PreambleCallbacks {
public:
  explicit KeepUserBodies(PreambleCallbacks &Clangd) : Clangd(Clangd) {}

  void BeforeExecute(CompilerInstance &CI) override {
    Clangd.BeforeExecute(CI);
  }
  void AfterExecute(CompilerInstance &CI) override { Clangd.AfterExecute(CI); }
  void AfterPCHEmitted(ASTWriter &Writer) override {
    Clangd.AfterPCHEmitted(Writer);
  }
  void HandleTopLevelDecl(DeclGroupRef DG) override {
    Clangd.HandleTopLevelDecl(DG);
  }
  std::unique_ptr<PPCallbacks> createPPCallbacks() override {
    return Clangd.createPPCallbacks();
  }
  CommentHandler *getCommentHandler() override {
    return Clangd.getCommentHandler();
  }
  bool shouldSkipFunctionBody(Decl *D) override {
    const SourceManager &SM = D->getASTContext().getSourceManager();
    if (!SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation())))
      return false;
    return Clangd.shouldSkipFunctionBody(D);
  }

private:
  PreambleCallbacks &Clangd;
};

} // namespace

// clang's own Build, renamed to __real_<symbol> by --wrap.
llvm::ErrorOr<PrecompiledPreamble> clangBuildPreamble(
    const CompilerInvocation &Invocation,
    const llvm::MemoryBuffer *MainFileBuffer, PreambleBounds Bounds,
    DiagnosticsEngine &Diagnostics,
    IntrusiveRefCntPtr<llvm::vfs::FileSystem> VFS,
    std::shared_ptr<PCHContainerOperations> PCHContainerOps,
    bool StoreInMemory, StringRef StoragePath, PreambleCallbacks &Callbacks)
    asm("__real__ZN5clang19PrecompiledPreamble5BuildERKNS_18CompilerInvocationEP"
        "KN4llvm12MemoryBufferENS_14PreambleBoundsERNS_17DiagnosticsEngineENS4_"
        "18IntrusiveRefCntPtrINS4_3vfs10FileSystemEEESt10shared_ptrINS_22PCHCo"
        "ntainerOperationsEEbNS4_9StringRefERNS_17PreambleCallbacksE");

// What clangd's Preamble.cpp calls instead, named __wrap_<symbol>.
llvm::ErrorOr<PrecompiledPreamble> torchClangdBuildPreamble(
    const CompilerInvocation &Invocation,
    const llvm::MemoryBuffer *MainFileBuffer, PreambleBounds Bounds,
    DiagnosticsEngine &Diagnostics,
    IntrusiveRefCntPtr<llvm::vfs::FileSystem> VFS,
    std::shared_ptr<PCHContainerOperations> PCHContainerOps,
    bool StoreInMemory, StringRef StoragePath, PreambleCallbacks &Callbacks)
    asm("__wrap__ZN5clang19PrecompiledPreamble5BuildERKNS_18CompilerInvocationEP"
        "KN4llvm12MemoryBufferENS_14PreambleBoundsERNS_17DiagnosticsEngineENS4_"
        "18IntrusiveRefCntPtrINS4_3vfs10FileSystemEEESt10shared_ptrINS_22PCHCo"
        "ntainerOperationsEEbNS4_9StringRefERNS_17PreambleCallbacksE");

llvm::ErrorOr<PrecompiledPreamble> torchClangdBuildPreamble(
    const CompilerInvocation &Invocation,
    const llvm::MemoryBuffer *MainFileBuffer, PreambleBounds Bounds,
    DiagnosticsEngine &Diagnostics,
    IntrusiveRefCntPtr<llvm::vfs::FileSystem> VFS,
    std::shared_ptr<PCHContainerOperations> PCHContainerOps,
    bool StoreInMemory, StringRef StoragePath, PreambleCallbacks &Callbacks) {
  KeepUserBodies Callbacks2(Callbacks);
  return clangBuildPreamble(Invocation, MainFileBuffer, Bounds, Diagnostics,
                            std::move(VFS), std::move(PCHContainerOps),
                            StoreInMemory, StoragePath, Callbacks2);
}
