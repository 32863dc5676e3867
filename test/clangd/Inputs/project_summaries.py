#!/usr/bin/env python3
"""Opens files of a project in torch-clangd and prints their torch findings
and what the server's log says of the function summaries it used.

project_summaries.py --server TORCH_CLANGD --root DIR --log FILE SOURCE...

Each source is opened, its diagnostics awaited and printed as
`FINDING <file>:<line>:<col> <check>: <message>`, and closed; the root gets
a .clangd enabling the torch-* checks. After the server exits, the lines
of its log that begin with `torch-tidy:` (after the log's level and time)
are printed as `LOG <line>`.
"""

import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lsp  # noqa: E402
import workspace  # noqa: E402


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--server", required=True)
    p.add_argument("--root", required=True)
    p.add_argument("--log", required=True)
    p.add_argument("sources", nargs="+")
    args = p.parse_args()

    with open(os.path.join(args.root, ".clangd"), "w") as f:
        f.write(workspace.clangd_config())
    with lsp.Client([args.server, "--log=info"], args.log) as client:
        client.initialize(args.root)
        for path in args.sources:
            with open(path, encoding="utf-8") as f:
                text = f.read()
            client.open(path, text, version=1)
            diags, _ = client.wait_diagnostics(path, 1)
            for d in lsp.torch_findings(diags):
                start = d["range"]["start"]
                print("FINDING %s:%d:%d %s: %s" % (
                    os.path.basename(path), start["line"] + 1,
                    start["character"] + 1, d["code"], d["message"]))
            client.close(path)
        code = client.shutdown()
    with open(args.log, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = re.match(r"^[A-Z]\[[0-9:.]+\] (torch-tidy:.*)$", line.rstrip("\n"))
            if m:
                print("LOG " + m.group(1))
    print("server exit code: %d" % code)
    return 0 if code == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
