"""A project folder for a language server test: the sources, a compilation
database and a .clangd that enables the torch-* checks."""

import json
import os
import shutil

CLANGD_CONFIG = """\
Diagnostics:
  ClangTidy:
    Add: ['torch-*']
"""


def clangd_config(options=None):
    """A .clangd enabling the torch-* checks, with CheckOptions if given."""
    text = CLANGD_CONFIG
    if options:
        text += "    CheckOptions:\n"
        for key, value in sorted(options.items()):
            text += "      %s: %s\n" % (key, json.dumps(value))
    return text


def make(folder, sources, flags, database="flags", config=CLANGD_CONFIG):
    """Creates `folder` afresh with copies of `sources` (files, or folders
    whose files are copied), a compile database giving every source `flags`
    (compile_flags.txt, or compile_commands.json when database="commands";
    none when None), and `config` as .clangd (none when None). Returns the
    paths of the copied files."""
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    copies = []
    for source in sources:
        if os.path.isdir(source):
            for name in sorted(os.listdir(source)):
                copy = os.path.join(folder, name)
                shutil.copyfile(os.path.join(source, name), copy)
                copies.append(copy)
            continue
        copy = os.path.join(folder, os.path.basename(source))
        shutil.copyfile(source, copy)
        copies.append(copy)
    if database == "flags":
        with open(os.path.join(folder, "compile_flags.txt"), "w") as f:
            f.write("\n".join(flags) + "\n")
    elif database == "commands":
        entries = [{"directory": folder, "file": copy,
                    "arguments": ["clang++"] + flags + ["-c", copy]}
                   for copy in copies if copy.endswith(".cpp")]
        with open(os.path.join(folder, "compile_commands.json"), "w") as f:
            json.dump(entries, f, indent=2)
    if config is not None:
        with open(os.path.join(folder, ".clangd"), "w") as f:
            f.write(config)
    return copies


def split_flags(text):
    """Compile flags given as one argument ("-std=c++17 -isystem DIR")."""
    return text.split()
