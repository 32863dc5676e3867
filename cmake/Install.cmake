# `cmake --install`: the binary and its pre-commit entry point, torch-clangd
# (clangd with the checks, for editors), the clang-tidy plugin, the runtime probe (headers and sources, which `torch-tidy verify`
# compiles against the user's LibTorch), and the documentation.
# `cpack -G DEB` packages the same tree for Debian bookworm.
include(GNUInstallDirs)

install(TARGETS torch-tidy torch-clangd RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(PROGRAMS driver/torch-tidy-pre-commit DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS TorchTidyModule LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY runtime_verify/probe/include/torch_tidy
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY runtime_verify/probe/
        DESTINATION ${CMAKE_INSTALL_DATADIR}/torch-tidy/probe)
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(FILES README.md .pre-commit-hooks.yaml DESTINATION ${CMAKE_INSTALL_DOCDIR})

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME torch-tidy)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "finds and fixes LibTorch code whose memory grows every training step")
set(CPACK_PACKAGE_CONTACT "torch-tidy developers <torch-tidy@users.noreply.github.com>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# What the binaries link (LLVM and clang 19; torch-clangd also clangd's
# remote-index libraries: gRPC, protobuf, abseil) and the builtin headers of
# the clang they were built with; verify builds programs with clang++
# against LibTorch, and the plugin is loaded by clang-tidy-19.
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "libclang-cpp19, libllvm19, libclang-common-19-dev, libgrpc++1.51, libgrpc29, libprotobuf32, libabsl20220623, libstdc++6, libc6")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "clang-19, clang-tidy-19, libtorch-dev")
include(CPack)
