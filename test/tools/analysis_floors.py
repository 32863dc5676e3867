#!/usr/bin/env python3
"""analysis_floors.py SOURCE_ROOT

Holds checks/analysis/ to the floors that docs/architecture.md gives it
(the table between the `analysis-floors` markers): every file of the folder
is on one floor, by the stem of its name; a file includes analyses of its
own floor or of floors below, never above; no two stems include each other,
directly or around a cycle; and every stem of the table has its files.
Prints one line per broken rule and exits 1, or a summary and exits 0.
"""
import os
import re
import sys

DOC = os.path.join("docs", "architecture.md")
FOLDER = os.path.join("checks", "analysis")
INCLUDE = re.compile(r'^\s*#\s*include\s*"checks/analysis/([A-Za-z0-9_]+)\.h"', re.M)


def floors(root):
    """{stem: floor} from the table of docs/architecture.md."""
    with open(os.path.join(root, DOC)) as f:
        text = f.read()
    m = re.search(r"<!-- analysis-floors: begin -->(.*?)<!-- analysis-floors: end -->",
                  text, re.S)
    if not m:
        raise SystemExit("error: %s has no analysis-floors table" % DOC)
    table = {}
    for line in m.group(1).splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 2 or not cells[0].isdigit():
            continue
        for stem in re.findall(r"`([A-Za-z0-9_]+)`", cells[1]):
            table[stem] = int(cells[0])
    return table


def main():
    root = sys.argv[1]
    table = floors(root)
    problems = []
    includes = {}  # stem -> {included stem: file that includes it}
    stems = set()
    for name in sorted(os.listdir(os.path.join(root, FOLDER))):
        stem, ext = os.path.splitext(name)
        if ext not in (".h", ".cpp"):
            continue
        stems.add(stem)
        if stem not in table:
            problems.append("%s/%s is on no floor of %s" % (FOLDER, name, DOC))
            continue
        with open(os.path.join(root, FOLDER, name)) as f:
            for used in INCLUDE.findall(f.read()):
                if used == stem:
                    continue
                includes.setdefault(stem, {}).setdefault(used, name)
                if used in table and table[used] > table[stem]:
                    problems.append(
                        "%s/%s (floor %d) includes %s.h (floor %d)" %
                        (FOLDER, name, table[stem], used, table[used]))
    for stem in sorted(set(table) - stems):
        problems.append("%s names %s, which has no file in %s" % (DOC, stem, FOLDER))
    # No cycle between stems: a depth-first walk of the include graph.
    state = {}

    def visit(stem, path):
        state[stem] = "open"
        for used in sorted(includes.get(stem, {})):
            if state.get(used) == "open":
                cycle = path[path.index(used):] + [used]
                problems.append("include cycle: %s" % " -> ".join(cycle))
            elif used not in state:
                visit(used, path + [used])
        state[stem] = "done"

    for stem in sorted(includes):
        if stem not in state:
            visit(stem, [stem])
    for p in problems:
        print("error: " + p)
    if problems:
        return 1
    print("every analysis of %s is on its floor of %s" % (FOLDER, DOC))
    return 0


if __name__ == "__main__":
    sys.exit(main())
