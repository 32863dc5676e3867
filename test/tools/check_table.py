#!/usr/bin/env python3
"""check_table.py SOURCE_ROOT LIST...

Holds the check table (checks/Checks.def) to its promises. Each LIST is
the output of `--list-checks -checks='-*,torch-*'` of one front end; both
register exactly the rows of the table, so they must agree. Then:
  - every check has its test, test/checks/<name>.cpp, and its page,
    docs/checks/<name>.md, and every test and page there belongs to a check
    (<name>.cpp, or more tests of it as <name>-<what>.cpp);
  - no code (comments aside) outside checks/Checks.def spells a check's
    name, and the table spells each one once.
Prints one line per broken promise and exits 1, or a summary and exits 0.
"""
import os
import re
import sys

CODE_DIRS = ["base", "checks", "driver", "fixits", "runtime_verify"]
TABLE = os.path.join("checks", "Checks.def")


def listed(path):
    with open(path) as f:
        return sorted(l.strip() for l in f if re.match(r"^\s+torch-\S+$", l))


def without_comments(text):
    """The text with its comments blanked out; string literals are kept."""
    token = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
    return token.sub(lambda m: m.group(0) if m.group(0)[0] in "\"'" else " ", text)


def code_files(root):
    for d in CODE_DIRS:
        for dirpath, _, files in os.walk(os.path.join(root, d)):
            for f in sorted(files):
                if f.endswith((".cpp", ".h", ".def", ".inc")):
                    yield os.path.join(dirpath, f)


def main():
    root, lists = sys.argv[1], sys.argv[2:]
    names = listed(lists[0])
    problems = []
    if not names:
        problems.append("%s lists no torch-* check" % lists[0])
    for other in lists[1:]:
        if listed(other) != names:
            problems.append("%s lists %s, %s lists %s" %
                            (lists[0], names, other, listed(other)))
    for kind, folder, ext in (("test", "test/checks", ".cpp"),
                              ("doc page", "docs/checks", ".md")):
        present = {f[:-len(ext)] for f in os.listdir(os.path.join(root, folder))
                   if f.endswith(ext)}
        for n in names:
            if n not in present:
                problems.append("%s has no %s %s/%s%s" % (n, kind, folder, n, ext))
        for p in sorted(present):
            # A check may have more tests: test/checks/<name>-<what>.cpp.
            if not any(p == n or p.startswith(n + "-") for n in names):
                problems.append("%s/%s%s belongs to no check of the table" % (folder, p, ext))
    for path in code_files(root):
        rel = os.path.relpath(path, root)
        with open(path, errors="replace") as f:
            text = without_comments(f.read())
        for n in names:
            count = len(re.findall(r"(?<![\w-])" + re.escape(n) + r"(?![\w-])", text))
            if rel == TABLE and count != 1:
                problems.append("%s spells %s %d times, not once" % (rel, n, count))
            elif rel != TABLE and count:
                problems.append("%s spells %s outside the check table" % (rel, n))
    for p in problems:
        print("error: " + p)
    if problems:
        return 1
    print("every check of the table has a test and a doc page; "
          "only the table names them in code")
    return 0


if __name__ == "__main__":
    sys.exit(main())
