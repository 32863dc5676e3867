#!/usr/bin/env python3
"""edit_cycle.py --server BIN --dir DIR --flags "FLAGS" SOURCE

What an editor does with torch-clangd: opens SOURCE (copied into DIR, with a
compile database and a .clangd enabling torch-*), waits for the diagnostics,
asks for the quick fixes of every torch finding and applies them all, sends
the fixed text as an edit and waits for the diagnostics of that version.
Prints the findings (1-based LINE:COL ranges), their notes and fixes, the
findings left after the fix, and the times from opening and from the edit to
the diagnostics, and how many preambles clangd built; writes the fixed text to DIR/fixed.cpp. Fails if a finding
has no fix, if the edits overlap, or if the server does not exit cleanly.
"""

import argparse
import os
import shutil
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lsp  # noqa: E402
import workspace  # noqa: E402


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--server", required=True)
    p.add_argument("--server-arg", action="append", default=[],
                   help="an argument for the server")
    p.add_argument("--dir", required=True)
    p.add_argument("--flags", required=True)
    p.add_argument("--database", choices=["flags", "commands"], default="flags")
    p.add_argument("--timeout", type=float, default=600)
    p.add_argument("--allow-unfixed", action="append", default=[],
                   help="a check whose findings may come without a fix")
    p.add_argument("--config", action="append", default=[],
                   metavar="NAME=FILE",
                   help="copy FILE into the project as NAME (e.g. .clang-tidy)")
    p.add_argument("--no-clangd-config", action="store_true",
                   help="no .clangd enabling torch-*")
    p.add_argument("--actions-at", metavar="LINE:COL",
                   help="also print the titles of the code actions (clangd's "
                        "own refactorings) offered at this 1-based position")
    p.add_argument("source")
    args = p.parse_args()
    args.server = os.path.abspath(args.server)
    args.dir = os.path.abspath(args.dir)

    (path,) = workspace.make(
        args.dir, [args.source], workspace.split_flags(args.flags),
        args.database,
        None if args.no_clangd_config else workspace.CLANGD_CONFIG)
    for config in args.config:
        name, source = config.split("=", 1)
        shutil.copyfile(source, os.path.join(args.dir, name))
    with open(path) as f:
        text = f.read()
    problems = []
    with lsp.Client([args.server, "--log=info"] + args.server_arg,
                    os.path.join(args.dir, "server.log")) as client:
        client.initialize(args.dir)
        opened = time.monotonic()
        client.open(path, text, version=1)
        diags, arrived = client.wait_diagnostics(path, 1, args.timeout)
        open_seconds = arrived - opened
        findings = sorted(lsp.torch_findings(diags), key=lsp.start_of)
        others = [d for d in diags if d not in findings]
        print("opened: %d torch findings, %d other diagnostics"
              % (len(findings), len(others)))
        for d in others:
            print("OTHER " + lsp.describe(d))
        edits = []
        for d in findings:
            print("FINDING " + lsp.describe(d))
            for info in d.get("relatedInformation", []):
                start = info["location"]["range"]["start"]
                print("  note %d:%d %s" % (start["line"] + 1,
                                           start["character"] + 1,
                                           info["message"]))
            actions = client.code_actions(path, d)
            for action in actions:
                action_edits = lsp.edits_for(action, lsp.uri_of(path))
                print("  fix '%s': %d edit(s)" % (action["title"],
                                                  len(action_edits)))
            if actions:
                edits.extend(lsp.edits_for(actions[0], lsp.uri_of(path)))
            elif d["code"] not in args.allow_unfixed:
                problems.append("no quick fix for " + lsp.describe(d))

        if args.actions_at:
            line, column = (int(n) - 1 for n in args.actions_at.split(":"))
            where = {"line": line, "character": column}
            actions = client.request("textDocument/codeAction", {
                "textDocument": {"uri": lsp.uri_of(path)},
                "range": {"start": where, "end": where},
                "context": {"diagnostics": []}}) or []
            print("actions at %s: %s" % (args.actions_at, ", ".join(
                sorted(a["title"] for a in actions))))

        fixed = lsp.apply_edits(text, edits)
        with open(os.path.join(args.dir, "fixed.cpp"), "w") as f:
            f.write(fixed)
        changed = time.monotonic()
        client.change(path, fixed, version=2)
        diags, arrived = client.wait_diagnostics(path, 2, args.timeout)
        change_seconds = arrived - changed
        left = lsp.torch_findings(diags)
        print("after the fixes: %d torch findings" % len(left))
        for d in left:
            print("LEFT " + lsp.describe(d))
        print("open to diagnostics: %.2f s" % open_seconds)
        print("edit to diagnostics: %.2f s" % change_seconds)
        code = client.shutdown()
        print("server exit code: %d" % code)
    # clangd logs each preamble it builds; the edit must have reused the one
    # built on opening.
    with open(os.path.join(args.dir, "server.log"), errors="replace") as f:
        built = [line for line in f
                 if "Built preamble" in line and " for file %s " % path in line]
    print("preambles built: %d" % len(built))
    for problem in problems:
        print("error: " + problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
