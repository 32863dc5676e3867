#!/usr/bin/env python3
"""run.py --server BIN --dir DIR --flags "FLAGS" SOURCE

Copies SOURCE into DIR with a compile database and a .clangd enabling
torch-*, opens it in a headless Neovim that runs fix.lua (its built-in LSP
client with torch-clangd), and prints fix.lua's report. Fails if Neovim
fails or takes more than --timeout seconds."""

import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import workspace  # noqa: E402


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--server", required=True)
    p.add_argument("--dir", required=True)
    p.add_argument("--flags", required=True)
    p.add_argument("--nvim", default="nvim")
    p.add_argument("--timeout", type=float, default=600)
    p.add_argument("source")
    args = p.parse_args()
    folder = os.path.abspath(args.dir)
    (path,) = workspace.make(folder, [args.source],
                             workspace.split_flags(args.flags))
    report = os.path.join(folder, "report.txt")
    env = dict(os.environ, TORCH_CLANGD=os.path.abspath(args.server),
               OUT=report)
    try:
        proc = subprocess.run(
            [args.nvim, "--headless", "--clean", "-n", "-i", "NONE",
             "-c", "luafile " + os.path.join(HERE, "fix.lua"), path],
            cwd=folder, env=env, stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            timeout=args.timeout)
        output, code = proc.stdout.decode("utf-8", "replace"), proc.returncode
    except subprocess.TimeoutExpired as e:
        output, code = (e.output or b"").decode("utf-8", "replace"), "timeout"
    if os.path.exists(report):
        with open(report) as f:
            sys.stdout.write(f.read())
    print("nvim exit code: %s" % code)
    if code != 0:
        sys.stderr.write(output)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
