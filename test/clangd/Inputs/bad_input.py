#!/usr/bin/env python3
"""bad_input.py --server BIN --dir DIR --flags "FLAGS" BROKEN LEAKY

Feeds torch-clangd what an editor or a project can get wrong, one server
per case, and prints what it did with it. Every case must end with the
server alive until it is told to exit (or until its input ends), with no
crash: a signal, or a crash report of LLVM's or a sanitizer's in its log,
fails the run.
"""

import argparse
import os
import random
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lsp  # noqa: E402
import workspace  # noqa: E402

CRASH_SIGNS = ("Stack dump", "PLEASE submit a bug report", "ERROR: AddressSanitizer",
               "runtime error:", "LeakSanitizer", "Signalled during")


class Case:
    def __init__(self, args, name, folder=None):
        self.name = name
        self.folder = folder or os.path.join(args.dir, name)
        os.makedirs(self.folder, exist_ok=True)
        self.log = os.path.join(self.folder, "server.log")
        self.client = lsp.Client([args.server, "--log=info",
                                  "--background-index=false"], self.log,
                                 cwd=self.folder)

    def finish(self, code, notes):
        with open(self.log, errors="replace") as f:
            log = f.read()
        crashed = code is None or code < 0 or any(s in log for s in CRASH_SIGNS)
        print("%s: %s; exit %s%s" % (self.name, "; ".join(notes), code,
                                     "; CRASHED" if crashed else ""))
        if crashed:
            sys.stderr.write("---- %s log ----\n%s\n" % (self.name, log))
        return not crashed, log


def logged(log, text):
    return "logged '%s'" % text if text in log else "NOT logged '%s'" % text


def transport_case(args, name, data, then_initialize, expect_log):
    case = Case(args, name)
    notes = []
    with case.client as c:
        c.send_raw(data)
        if then_initialize:
            c.initialize(case.folder)
            notes.append("answered initialize after it")
            code = c.shutdown()
        else:
            c.proc.stdin.close()
            code = c.wait_exit()
    with open(case.log, errors="replace") as f:
        notes.append(logged(f.read(), expect_log))
    return case.finish(code, notes)[0]


def request_errors(args):
    """Requests with wrong parameters, and about a file never opened."""
    case = Case(args, "wrong-requests")
    notes = []
    with case.client as c:
        c.initialize(case.folder)
        for method, params in [
                ("textDocument/hover", "nonsense"),
                ("textDocument/codeAction", {
                    "textDocument": {"uri": lsp.uri_of(
                        os.path.join(case.folder, "never-opened.cpp"))},
                    "range": {"start": {"line": 0, "character": 0},
                              "end": {"line": 0, "character": 1}},
                    "context": {"diagnostics": []}})]:
            try:
                c.request(method, params)
                notes.append("%s answered" % method)
            except lsp.LspError as e:
                code = str(e).split("'code': ")[-1].split(",")[0]
                notes.append("%s refused (%s)" % (method, code))
        code = c.shutdown()
    return case.finish(code, notes)[0]


def open_case(args, name, source_text, database, extra=None, expect_log=None,
              root=None):
    """Opens a file in a project folder (under `root`, default DIR) and
    reports its diagnostics."""
    staging = os.path.join(args.dir, "staging", name)
    os.makedirs(staging, exist_ok=True)
    with open(os.path.join(staging, "input.cpp"), "w", encoding="utf-8") as f:
        f.write(source_text)
    folder = os.path.join(root or args.dir, name)
    workspace.make(folder, [os.path.join(staging, "input.cpp")],
                   workspace.split_flags(args.flags), database)
    if extra:
        extra(folder)
    path = os.path.join(folder, "input.cpp")
    case = Case(args, name, folder)
    notes = []
    with case.client as c:
        c.initialize(folder)
        c.open(path, source_text)
        diags, _ = c.wait_diagnostics(path, 1)
        errors = [d for d in diags if d.get("severity") == 1]
        torch = lsp.torch_findings(diags)
        notes.append("%d errors, %d torch findings" % (len(errors), len(torch)))
        for d in errors[:1]:
            notes.append("first error: " + d["message"].splitlines()[0])
        for d in torch:
            notes.append("finding: " + lsp.describe(d).split(":")[0] + " "
                         + d["code"])
        # Still answering.
        c.request("textDocument/documentSymbol",
                  {"textDocument": {"uri": lsp.uri_of(path)}})
        notes.append("answers requests")
        code = c.shutdown()
    if expect_log:
        with open(case.log, errors="replace") as f:
            notes.append(logged(f.read(), expect_log))
    return case.finish(code, notes)[0]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--server", required=True)
    p.add_argument("--dir", required=True)
    p.add_argument("--flags", required=True)
    p.add_argument("broken", help="a source that does not compile")
    p.add_argument("leaky", help="a source with torch findings")
    args = p.parse_args()
    args.server = os.path.abspath(args.server)
    args.dir = os.path.abspath(args.dir)
    os.makedirs(args.dir, exist_ok=True)
    with open(args.broken) as f:
        broken = f.read()
    with open(args.leaky) as f:
        leaky = f.read()
    noise = bytes(random.Random(14).getrandbits(8) for _ in range(4096))

    ok = True
    ok &= transport_case(args, "not-json",
                         b"Content-Length: 10\r\n\r\n{not json}", True,
                         "JSON parse error")
    ok &= transport_case(args, "no-header", b"\x00\x01garbage\r\n\r\n", True,
                         "Missing Content-Length")
    ok &= transport_case(args, "noise-then-eof", noise, False,
                         "LSP finished")
    ok &= transport_case(args, "cut-off-message",
                         b"Content-Length: 1000\r\n\r\n{\"jsonrpc\":", False,
                         "Input/output error")
    ok &= request_errors(args)
    ok &= open_case(args, "does-not-parse", broken, "flags")

    # clangd looks for a compile database in every parent folder, so these
    # two live outside the build tree (which has one).
    def corrupt(folder):
        with open(os.path.join(folder, "compile_commands.json"), "w") as f:
            f.write("[{ this is not json")
    with tempfile.TemporaryDirectory(prefix="torch-clangd-test-") as root:
        ok &= open_case(args, "no-compile-database", leaky, None,
                        expect_log="Failed to find compilation database",
                        root=root)
        ok &= open_case(args, "corrupt-compile-database", leaky, "commands",
                        corrupt, "Failed to load compilation database", root)
    ok &= open_case(args, "binary-file",
                    "\x00\x01\x02" + noise.decode("latin-1") + "\n", "flags")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
