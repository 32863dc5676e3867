#!/usr/bin/env python3
"""Replays fuzzer inputs through both front ends of torch-tidy.

Usage (from lit):
  replay.py --torch-tidy=T --plugin-front-end='C -load=P' --inputs=MOCK TEMP PATH...

Each PATH is an input or a folder of inputs.

A FILE ending in .cpp is source text: each front end runs every torch-*
check with --fix on a copy of it, with the mock LibTorch headers. Any other
FILE is a file the tool reads: each front end gets it as --config-file, and
torch-tidy also as compile_commands.json and compile_flags.txt in a build
folder (-p).

Each run may report findings or reject the input (exit code 0, 1 or 2) but
must not crash: a signal, or an exit code a sanitizer chose, fails.
"""

import argparse
import os
import shlex
import shutil
import subprocess
import sys

ACCEPTED = (0, 1, 2)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--torch-tidy", required=True)
    p.add_argument("--plugin-front-end", required=True,
                   help="clang-tidy with the plugin loaded, as one string")
    p.add_argument("--inputs", required=True, help="mock torch headers")
    p.add_argument("temp")
    p.add_argument("paths", nargs="+")
    args = p.parse_args()
    files = []
    for path in args.paths:
        if os.path.isdir(path):
            files += sorted(os.path.join(path, n) for n in os.listdir(path)
                            if not n.startswith("."))
        else:
            files.append(path)

    front_ends = {
        "torch-tidy": [args.torch_tidy],
        "plugin": shlex.split(args.plugin_front_end),
    }
    cflags = ["-std=c++17", "-isystem", args.inputs]
    shutil.rmtree(args.temp, ignore_errors=True)
    os.makedirs(args.temp)
    probe = os.path.join(args.temp, "probe.cpp")
    with open(probe, "w") as f:
        f.write("int main() { return 0; }\n")

    failures = []
    runs = 0
    for n, path in enumerate(files):
        with open(path, "rb") as f:
            data = f.read()
        for fe, tool in front_ends.items():
            work = os.path.join(args.temp, "%d.%s" % (n, fe))
            os.makedirs(work)
            commands = []
            if path.endswith(".cpp"):
                copy = os.path.join(work, "input.cpp")
                with open(copy, "wb") as f:
                    f.write(data)
                commands.append(tool + [copy, "--fix", "--checks=-*,torch-*",
                                        "--"] + cflags)
            else:
                config = os.path.join(work, "config")
                with open(config, "wb") as f:
                    f.write(data)
                commands.append(tool + ["--config-file=" + config,
                                        "--dump-config"])
                commands.append(tool + ["--config-file=" + config, probe,
                                        "--"] + cflags)
                # Compile databases only through torch-tidy: clang-tidy-19
                # reads them with its own code, outside the plugin, and
                # aborts ("Cannot chdir") on a database whose directory does
                # not exist on this machine.
                if fe == "plugin":
                    continue
                for name in ("compile_commands.json", "compile_flags.txt"):
                    db = os.path.join(work, name + ".d")
                    os.makedirs(db)
                    with open(os.path.join(db, name), "wb") as f:
                        f.write(data)
                    commands.append(tool + ["-p", db, "--checks=-*,torch-*",
                                            probe])
            for cmd in commands:
                runs += 1
                proc = subprocess.run(cmd, stdout=subprocess.PIPE,
                                      stderr=subprocess.STDOUT, cwd=work,
                                      timeout=600)
                if proc.returncode not in ACCEPTED:
                    failures.append("%s: %s exited with %d\n%s" % (
                        path, " ".join(cmd), proc.returncode,
                        proc.stdout.decode("utf-8", "replace")[-4000:]))
    for failure in failures:
        sys.stderr.write("replay.py: error: %s\n" % failure)
    print("replay.py: %d inputs, %d runs, %d crashed"
          % (len(files), runs, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
