#!/usr/bin/env python3
"""compare.py --server BIN --torch-tidy BIN --dir DIR --flags "FLAGS" SOURCE...

Checks that torch-clangd reports, on each SOURCE, exactly what torch-tidy
reports: every torch-* finding at the same place with the same message, the
same notes, and a quick fix making the same edits as torch-tidy's fix-it.
Each SOURCE (a file, or a folder whose .cpp files are compared) is copied
into its own folder under DIR with a compile database
and a .clangd that enables torch-* (with --option CHECK.OPTION=VALUE as
CheckOptions, which torch-tidy gets through -config). torch-tidy runs on the
copy with --format=json; torch-clangd opens it as an editor would.

Prints one line per SOURCE and the number of findings of each check; any
difference is printed and fails the run, as does a run with no finding.
"""

import argparse
import collections
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lsp  # noqa: E402
import workspace  # noqa: E402


def normalise(message):
    """clangd capitalises messages and says when a fix is available."""
    for suffix in (" (fix available)", " (fixes available)"):
        if message.endswith(suffix):
            message = message[:-len(suffix)]
    return message[:1].lower() + message[1:]


def byte_position(text, position):
    """1-based line and byte column of an LSP position."""
    offset = lsp.offset_of(text, position)
    line_start = text.rfind("\n", 0, offset) + 1
    return (position["line"] + 1,
            len(text[line_start:offset].encode("utf-8")) + 1)


def byte_offset(text, position):
    return len(text[:lsp.offset_of(text, position)].encode("utf-8"))


MACRO_NOTE = re.compile(r"^expanded from macro '(\w+)'$")


def body_start(text, macro):
    """1-based line and column of the first token of MACRO's replacement
    list, where the file defines it; None otherwise."""
    lines = text.split("\n")
    pattern = re.compile(r"^\s*#\s*define\s+%s\b(\([^)]*\))?\s*" % macro)
    for number, line in enumerate(lines, 1):
        m = pattern.match(line)
        if m:
            return number, len(line[:m.end()].encode("utf-8")) + 1
    return None


def in_macro(text, finding):
    """Where clangd may show a finding made inside a macro expansion.

    clang, and so torch-tidy, prints it at the file location of its caret:
    where a macro argument is written, or the invocation when the caret is
    in the macro's body. clangd shows the finding's range mapped to the
    file: a range inside one argument stays where the argument is written;
    a range that covers the whole expansion becomes the invocation, and the
    finding is shown at its start; any other range cannot be mapped, and
    the finding is shown at its caret. The "expanded from macro" note, which
    clangd drops, points at the caret's place in the body: a caret that is
    not at the start of the body leaves the finding at the caret; one at the
    start may be shown at either place (the range's end, which decides, is
    not in torch-tidy's output), so the invocation is kept as `also`."""
    macros = [(MACRO_NOTE.match(n[2]).group(1), n[0], n[1])
              for n in finding["notes"] if MACRO_NOTE.match(n[2])]
    if not macros:
        return finding
    moved = dict(finding,
                 notes=[n for n in finding["notes"] if not MACRO_NOTE.match(n[2])])
    line = text.split("\n")[finding["line"] - 1].encode("utf-8")
    for name, note_line, note_column in macros:
        invocation = (name + "(").encode()
        column = line.rfind(invocation, 0,
                            finding["column"] - 1 + len(invocation))
        if column < 0:
            continue
        if body_start(text, name) in (None, (note_line, note_column)):
            moved["also"] = (finding["line"], column + 1)
        break
    return moved


def same(tidy, clangd):
    """The finding clangd shows is the one torch-tidy printed."""
    fields = ("check", "message", "notes", "fixes")
    if any(tidy[f] != clangd[f] for f in fields):
        return False
    place = (clangd["line"], clangd["column"])
    return place in ((tidy["line"], tidy["column"]), tidy.get("also"))


def tidy_findings(args, path, options):
    cmd = [args.torch_tidy, "-checks=-*,torch-*", "--format=json"]
    if options:
        cmd.append("-config=" + json.dumps({"CheckOptions": options}))
    cmd += [path, "--"] + workspace.split_flags(args.flags)
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, cwd=os.path.dirname(path))
    if proc.returncode not in (0, 1):
        sys.exit("compare.py: torch-tidy failed (%d) on %s:\n%s"
                 % (proc.returncode, path, proc.stderr))
    found = []
    for f in json.loads(proc.stdout):
        if os.path.realpath(f["file"]) != os.path.realpath(path):
            continue
        notes = sorted((n["line"], n["column"], n["message"])
                       for n in f["notes"]
                       if os.path.realpath(n["file"]) == os.path.realpath(path))
        fixes = sorted((x["offset"], x["length"], x["replacement"])
                       for x in f["fixes"])
        found.append({"check": f["check"], "line": f["line"],
                      "column": f["column"], "message": f["message"],
                      "notes": notes, "fixes": fixes})
    with open(path, encoding="utf-8") as f:
        text = f.read()
    return [in_macro(text, f) for f in found]


def clangd_findings(client, path, text):
    client.open(path, text, version=1)
    diags, _ = client.wait_diagnostics(path, 1)
    found = []
    uri = lsp.uri_of(path)
    for d in lsp.torch_findings(diags):
        line, column = byte_position(text, d["range"]["start"])
        notes = sorted(byte_position(text, n["location"]["range"]["start"])
                       + (normalise(n["message"]),)
                       for n in d.get("relatedInformation", [])
                       if n["location"]["uri"] == uri)
        actions = client.code_actions(path, d)
        fixes = []
        if actions:
            for e in lsp.edits_for(actions[0], uri):
                start = byte_offset(text, e["range"]["start"])
                end = byte_offset(text, e["range"]["end"])
                fixes.append((start, end - start, e["newText"]))
        found.append({"check": d["code"], "line": line, "column": column,
                      "message": normalise(d["message"]),
                      "notes": sorted(notes), "fixes": sorted(fixes)})
    client.close(path)
    return found


def key(f):
    return (f["line"], f["column"], f["check"], f["message"])


def show(f):
    return "%d:%d %s: %s notes=%s fixes=%s" % (
        f["line"], f["column"], f["check"], f["message"], f["notes"],
        f["fixes"])


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--server", required=True)
    p.add_argument("--server-arg", action="append", default=[],
                   help="an argument for the server")
    p.add_argument("--torch-tidy", required=True)
    p.add_argument("--dir", required=True)
    p.add_argument("--flags", required=True)
    p.add_argument("--database", choices=["flags", "commands"], default="flags")
    p.add_argument("--option", action="append", default=[],
                   metavar="CHECK.OPTION=VALUE")
    p.add_argument("sources", nargs="+")
    args = p.parse_args()
    args.server = os.path.abspath(args.server)
    args.torch_tidy = os.path.abspath(args.torch_tidy)
    args.dir = os.path.abspath(args.dir)
    options = dict(o.split("=", 1) for o in args.option)

    os.makedirs(args.dir, exist_ok=True)
    counts = collections.Counter()
    differences = files = 0
    with lsp.Client([args.server, "--log=info"] + args.server_arg,
                    os.path.join(args.dir, "server.log")) as client:
        client.initialize(args.dir)
        for index, source in enumerate(args.sources):
            folder = os.path.join(args.dir, "%02d" % index)
            for path in workspace.make(folder, [source],
                                       workspace.split_flags(args.flags),
                                       args.database,
                                       workspace.clangd_config(options)):
                if not path.endswith(".cpp"):
                    continue
                with open(path, encoding="utf-8") as f:
                    text = f.read()
                tidy = sorted(tidy_findings(args, path, options), key=key)
                clangd = sorted(clangd_findings(client, path, text), key=key)
                name = os.path.relpath(path, folder)
                if os.path.isdir(source):
                    name = os.path.join(os.path.basename(source), name)
                files += 1
                counts.update(f["check"] for f in tidy)
                unmatched = list(clangd)
                tidy_only = []
                for f in tidy:
                    match = next((c for c in unmatched if same(f, c)), None)
                    if match is None:
                        tidy_only.append(f)
                    else:
                        unmatched.remove(match)
                if not tidy_only and not unmatched:
                    print("same: %s: %d findings" % (name, len(tidy)))
                    continue
                differences += 1
                print("DIFFERENT: %s" % name)
                for f in tidy_only:
                    print("  torch-tidy only:   " + show(f))
                for f in unmatched:
                    print("  torch-clangd only: " + show(f))
        code = client.shutdown()
    for check, count in sorted(counts.items()):
        print("%s: %d" % (check, count))
    print("server exit code: %d" % code)
    if differences or not counts or code != 0:
        print("compare.py: %d of %d files differ" % (differences, files),
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
