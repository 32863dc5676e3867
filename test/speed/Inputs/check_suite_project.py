#!/usr/bin/env python3
"""check_suite_project.py OUT TORCH_INCLUDE FILE_OR_DIR...

Makes a project of the check tests FILE_OR_DIR... (a directory stands for
its .cpp files): each test as it is in OUT/a/,
and a copy in OUT/b/ with comments, blank lines and trailing comments of its
own among its leading directives (the same directives, at other offsets),
so that the copy reads the preamble the original built, or the other way
round. OUT/build/compile_commands.json compiles them all with C++17,
TORCH_INCLUDE as a system directory, and the folders of the tests' Inputs/
(the headers of a test made of several files) on the include path.
"""
import glob
import json
import os
import sys

out, torch_include = os.path.abspath(sys.argv[1]), sys.argv[2]
files = []
for arg in sys.argv[3:]:
    files += sorted(glob.glob(os.path.join(arg, "*.cpp"))) if os.path.isdir(arg) else [arg]
if not files:
    sys.exit("no check tests in " + " ".join(sys.argv[3:]))


def relaid(text):
    """The same directives, laid out otherwise: a comment block first, a
    blank line and a trailing comment after the first #include."""
    lines = text.split("\n")
    first = next(i for i, l in enumerate(lines) if l.startswith("#include"))
    lines[first] += "  // the first include, commented"
    lines.insert(first + 1, "")
    return "// A copy of the test with a layout of its own.\n//\n\n" + "\n".join(lines)


def input_dirs(test):
    """-I for every folder under the test's Inputs/ (the headers of a test
    that is made of several files)."""
    root = os.path.join(os.path.dirname(os.path.abspath(test)), "Inputs")
    return [flag for d in sorted(glob.glob(os.path.join(root, "*", "")))
            for flag in ("-I", d.rstrip("/"))]


entries = []
build = os.path.join(out, "build")
for d in ("a", "b", "build"):
    os.makedirs(os.path.join(out, d), exist_ok=True)
for f in files:
    text = open(f).read()
    for d, t in (("a", text), ("b", relaid(text))):
        path = os.path.join(out, d, os.path.basename(f))
        with open(path, "w") as o:
            o.write(t)
        entries.append({"directory": build, "file": path,
                        "arguments": ["clang++", "-std=c++17", "-isystem", torch_include,
                                      *input_dirs(f), "-c", path,
                                      "-o", os.path.basename(f) + ".o"]})
with open(os.path.join(build, "compile_commands.json"), "w") as o:
    json.dump(entries, o, indent=1)
