#!/usr/bin/env python3
"""Writes compile_commands.json for a sample project.

make_compile_db.py PROJECT_DIR BUILD_DIR MOCK_TORCH_INCLUDE
lists every src/*.cpp of PROJECT_DIR, compiled from BUILD_DIR with
-I PROJECT_DIR/include and the mock LibTorch headers as a system directory.
"""
import glob
import json
import os
import sys

project, build, torch_include = (os.path.abspath(a) for a in sys.argv[1:4])
os.makedirs(build, exist_ok=True)
entries = []
for src in sorted(glob.glob(os.path.join(project, "src", "*.cpp"))):
    entries.append({
        "directory": build,
        "file": src,
        "arguments": ["clang++", "-std=c++17", "-I" + os.path.join(project, "include"),
                      "-isystem", torch_include, "-c", src,
                      "-o", os.path.basename(src) + ".o"],
    })
with open(os.path.join(build, "compile_commands.json"), "w") as f:
    json.dump(entries, f, indent=2)
