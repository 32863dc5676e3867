# -*- Python -*-
# The torch-tidy test suite: check tests, analysis tests, driver, fix-it and
# integration tests, all through lit and FileCheck.
import os
import shlex
import shutil

import lit.formats

config.name = "torch-tidy"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".cpp", ".test"]
config.excludes = ["Inputs", "tools", "CMakeLists.txt", "check_torch_tidy.py", "deb_package.py", "identity.py", "bench", "corpus"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.torch_tidy_build_dir, "test")

config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.environment.get("PATH", os.environ["PATH"])])
# The sanitizer options reach the tools of an ASan + UBSan build
# (.ci/test-sanitizers).
for var in ("HOME", "TMPDIR", "LANG", "ASAN_OPTIONS", "UBSAN_OPTIONS",
            "LSAN_OPTIONS", "ASAN_SYMBOLIZER_PATH"):
    if var in os.environ:
        config.environment[var] = os.environ[var]

inputs = os.path.join(config.test_source_root, "Inputs")
torch_tidy = os.path.join(config.torch_tidy_build_dir, "bin", "torch-tidy")
plugin = os.path.join(config.torch_tidy_build_dir, "lib", "TorchTidyModule.so")
python = shlex.quote(config.python_executable)

runner = " ".join([
    python, shlex.quote(os.path.join(config.test_source_root, "check_torch_tidy.py")),
    "--torch-tidy=" + shlex.quote(torch_tidy),
    "--clang-tidy=" + shlex.quote(config.clang_tidy),
    "--plugin=" + shlex.quote(plugin),
    "--filecheck=" + shlex.quote(os.path.join(config.llvm_tools_dir, "FileCheck")),
    "--cxx=" + shlex.quote(config.clangxx),
    "--inputs=" + shlex.quote(inputs),
])
real_torch = ":".join(config.libtorch_include_dirs)

config.substitutions.append(("%check_torch_tidy_real",
                             runner + " --torch-include=" + shlex.quote(real_torch)))
config.substitutions.append(("%check_torch_tidy", runner))
config.substitutions.append(("%torch_tidy", shlex.quote(torch_tidy)))
# clangd with the torch-* checks linked in (test/clangd).
config.substitutions.append(("%torch_clangd", shlex.quote(
    os.path.join(config.torch_tidy_build_dir, "bin", "torch-clangd"))))
config.substitutions.append(("%clang_tidy_plugin",
                             shlex.quote(config.clang_tidy) + " -load=" + shlex.quote(plugin)))
config.substitutions.append(("%analysis_dump", shlex.quote(
    os.path.join(config.torch_tidy_build_dir, "bin", "torch-tidy-analysis-dump"))))
config.substitutions.append(("%mock_torch", "-std=c++17 -isystem " + shlex.quote(inputs)))
config.substitutions.append(("%real_torch", "-std=c++17 " + " ".join(
    "-isystem " + shlex.quote(d) for d in config.libtorch_include_dirs)))
config.substitutions.append(("%clangxx", shlex.quote(config.clangxx)))
config.substitutions.append(("%python", python))
config.substitutions.append(("%inputs", shlex.quote(inputs)))

if all(os.path.isdir(d) for d in config.libtorch_include_dirs):
    config.available_features.add("libtorch")
# The tests that parse the real LibTorch headers require this feature. They
# add parse time, not coverage of torch-tidy's own code: .ci/test runs them
# against the plain build only, and the sanitizer run leaves them out
# (TORCH_TIDY_REAL_HEADER_TESTS=0). One real-header smoke test per front end
# does not require it and runs in both.
if os.environ.get("TORCH_TIDY_REAL_HEADER_TESTS", "1") != "0":
    config.available_features.add("real-header-tests")
# The same directories, separated by ':' (first: "%real_torch" is a prefix).
config.substitutions.insert(0, ("%real_torch_include", shlex.quote(real_torch)))

# LibTorch 2.x from `.ci/install-libtorch2` (CMake: LIBTORCH2_PREFIX). Its
# headers need C++20. These substitutions go first: "%real_torch" and
# "%check_torch_tidy_real" are prefixes of theirs.
libtorch2 = config.libtorch2_prefix
libtorch2_includes = [os.path.join(libtorch2, "include"),
                      os.path.join(libtorch2, "include", "torch", "csrc", "api", "include")]
config.substitutions.insert(0, ("%libtorch2_prefix", shlex.quote(libtorch2)))
config.substitutions.insert(0, ("%real_torch2", "-std=c++20 " + " ".join(
    "-isystem " + shlex.quote(d) for d in libtorch2_includes)))
config.substitutions.insert(0, ("%check_torch_tidy_real2", runner + " --torch-include="
                                + shlex.quote(":".join(libtorch2_includes)) + " --std=c++20"))
if os.path.isfile(os.path.join(libtorch2, "share", "cmake", "Torch", "TorchConfig.cmake")):
    config.available_features.add("libtorch2")
# The CUDA toolkit that links LibTorch 2.x's CUDA parts (its CMake config
# looks for it).
if shutil.which("nvcc", path=os.pathsep.join(["/usr/local/cuda/bin", os.environ.get("PATH", "")])):
    config.available_features.add("cuda-toolkit")

# Runtime verification (test/runtime_verify). The precompiled <torch/torch.h>
# and the probe object that `torch-tidy verify` builds are cached once per
# build tree and shared by every test. Feature `cuda`: a CUDA device is
# present (nvidia-smi lists one); without it the GPU tests are UNSUPPORTED.
verify_cache = os.path.join(config.torch_tidy_build_dir, "test", "runtime_verify-cache")
config.environment["TORCH_TIDY_CACHE_DIR"] = verify_cache
config.substitutions.append(("%verify_cache", shlex.quote(verify_cache)))
config.substitutions.append(("%probe_dir", shlex.quote(
    os.path.join(os.path.dirname(config.test_source_root), "runtime_verify", "probe"))))
try:
    import subprocess
    gpus = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=20)
    if gpus.returncode == 0 and "GPU" in gpus.stdout:
        config.available_features.add("cuda")
except (OSError, subprocess.SubprocessError):
    pass

# Project-level runs (test/project): the SARIF 2.1.0 JSON schema that
# .ci/install-test-tools fetches, the clang-apply-replacements that must
# accept exported fixes, and Debian's pre-commit for the hook test.
sarif_schema = os.environ.get("TORCH_TIDY_SARIF_SCHEMA", os.path.join(
    os.path.expanduser("~"), ".cache", "torch-tidy", "sarif-schema-2.1.0.json"))
config.substitutions.append(("%sarif_schema", shlex.quote(sarif_schema)))
if os.path.isfile(sarif_schema):
    config.available_features.add("sarif-schema")
config.substitutions.append(("%project_inputs", shlex.quote(
    os.path.join(config.test_source_root, "project", "Inputs"))))
if shutil.which("clang-apply-replacements-19"):
    config.available_features.add("clang-apply-replacements")
if shutil.which("pre-commit"):
    config.available_features.add("pre-commit")
config.substitutions.insert(0, ("%torch_tidy_bin_dir", shlex.quote(
    os.path.join(config.torch_tidy_build_dir, "bin"))))
config.substitutions.insert(0, ("%torch_tidy_build_dir", shlex.quote(config.torch_tidy_build_dir)))
# The .deb test installs and removes a system package: as root, with apt.
if hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("apt-get") \
        and shutil.which("cpack") and os.environ.get("TORCH_TIDY_TEST_DEB", "1") != "0":
    config.available_features.add("package-install")
# torch-tidy's result cache: one per build tree, not the user's.
config.environment["XDG_CACHE_HOME"] = os.path.join(config.torch_tidy_build_dir, "test", "xdg-cache")

# An ASan + UBSan build (.ci/test-sanitizers, cmake/Sanitizers.cmake) writes
# bin/clang-tidy-asan, which preloads the ASan runtime into clang-tidy-19 so
# that the instrumented plugin can load; %clang_tidy names the clang-tidy
# that hosts the plugin in either build. An instrumented build is not
# installed as a system package (package-install): the package tests run in
# the ordinary build.
config.substitutions.append(("%clang_tidy", shlex.quote(config.clang_tidy)))
if os.path.basename(config.clang_tidy) == "clang-tidy-asan":
    config.available_features.add("sanitizers")
    config.available_features.discard("package-install")

# clangd reads the user's configuration from $XDG_CONFIG_HOME/clangd: the
# tests use none.
config.environment["XDG_CONFIG_HOME"] = os.path.join(
    config.torch_tidy_build_dir, "test", "xdg-config")
# Debian's Neovim, a real LSP client for torch-clangd (test/clangd).
if shutil.which("nvim"):
    config.available_features.add("neovim")
