#!/usr/bin/env python3
"""Runs torch-tidy over the materialised corpus and scores it against the
labelled sites.

    evaluate.py [--torch-tidy BIN] [-j N] [--corpus-dir DIR] [--json OUT]
                [--logs DIR] [--no-summaries] [PROJECT ...]

Every listed file of every materialised project (see materialize.py) is run
with -checks=-*,torch-* and the project's flags, and with the function
summaries of the project's listed files (one torch-tidy --export-summaries
run over them all first), as a user who lints the whole project would. A diagnostic on a site
labelled `leak`, `bounded-leak` or `bug` is a true positive; any other diagnostic
(on a `lookalike` site or on an unlabelled line) is a false positive; a
leak site with no diagnostic is a miss. Exit status: 0 when the evaluation
ran (whatever it found), 2 when it could not run.
"""
import argparse
import concurrent.futures
import csv
import json
import os
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

CORPUS = Path(__file__).resolve().parent
REPO = CORPUS.parent.parent
CACHE = Path.home() / ".cache" / "torch-tidy"
STAMP = ".torch-tidy-corpus.json"  # written by materialize.py
# What counts as a true finding: a leak (bounded or not) of the memory
# checks, a bug of the training-loop checks.
LEAK_LABELS = {"leak", "bounded-leak", "bug"}
LABELS = LEAK_LABELS | {"lookalike"}
HEADER_SUFFIXES = {".h", ".hh", ".hpp", ".hxx", ".cuh", ".inl", ".tpp", ".ipp", ".txx", ".tcc"}
DIAGNOSTIC = re.compile(r"^(.+?):(\d+):(\d+): (warning|error): (.*?)(?: \[([\w.,-]+)\])?$")
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', re.M)


class CannotRun(Exception):
    pass


def torch_flags(version, std, libtorch2):
    """-std and the LibTorch include directories for `torch` of project.json.
    /usr/include is already a system directory: naming it with -isystem
    would break libstdc++'s #include_next."""
    if version == "1.13":
        return [f"-std={std}", "-isystem", "/usr/include/torch/csrc/api/include"]
    if version.startswith("2"):
        if std in ("c++11", "c++14", "c++17", "gnu++14", "gnu++17"):
            std = "c++20"  # LibTorch 2.x's headers need C++20
        return [f"-std={std}", "-isystem", str(libtorch2 / "include"),
                "-isystem", str(libtorch2 / "include/torch/csrc/api/include")]
    raise CannotRun(f"unknown torch version '{version}' (expected 1.13 or 2.x)")


def read_sites(folder, project):
    """{(file, line, check): row} from the project's sites.csv."""
    sites = {}
    path = folder / "sites.csv"
    if not path.is_file():
        return sites
    with open(path, newline="") as f:
        for number, row in enumerate(csv.DictReader(f), start=2):
            try:
                key = (row["file"], int(row["line"]), row["check"])
            except (KeyError, TypeError, ValueError):
                raise CannotRun(f"{path}:{number}: malformed row {row}")
            if row["label"] not in LABELS:
                raise CannotRun(f"{path}:{number}: unknown label '{row['label']}'")
            if row["repository"] != project["repository"] or row["commit"] != project["commit"]:
                raise CannotRun(f"{path}:{number}: repository/commit differ from project.json")
            if key in sites:
                raise CannotRun(f"{path}:{number}: {key} is labelled twice")
            sites[key] = row
    return sites


def units_of(files, root, include_dirs=()):
    """The files to run: every listed source, and each listed header that no
    file run includes, directly or through other headers of the tree (a
    header is analysed through the units that include it, thanks to the
    header filter; a template's implementation file, `.tpp` and the like, is
    a header). An include is found as the compiler finds it: next to the
    file that includes it, then in the project's include folders."""
    sources = [f for f in files if Path(f).suffix not in HEADER_SUFFIXES]
    headers = [f for f in files if Path(f).suffix in HEADER_SUFFIXES]
    root = Path(root)

    def includes(f):
        try:
            found = INCLUDE.findall((root / f).read_text(errors="replace"))
        except OSError:
            return []
        out = []
        for name in found:
            for base in [Path(f).parent, *map(Path, include_dirs), Path(".")]:
                candidate = os.path.normpath(base / name)
                if not candidate.startswith("..") and (root / candidate).is_file():
                    out.append(candidate)
                    break
        return out

    reached = set()

    def reach(f):
        todo = [f]
        while todo:
            for h in includes(todo.pop()):
                if h not in reached:
                    reached.add(h)
                    todo.append(h)

    for source in sources:
        reach(source)
    alone = []
    for header in headers:
        if os.path.normpath(header) not in reached:
            alone.append(header)
            reached.add(os.path.normpath(header))
            reach(header)
    return sources + alone


def header_filter(root):
    """The project's files: absolute ones under its root, and relative ones
    (relative to the root, where the tool runs) that do not leave it."""
    return f"^({re.escape(str(root))}/|\\./|[^/.])"


def config(summaries):
    """--config for a run: a project's own .clang-tidy (its checks,
    WarningsAsErrors) must not change what is run or how it exits."""
    if not summaries:
        return "--config={}"
    return "--config=" + json.dumps({"CheckOptions": {"FunctionSummaries": str(summaries)}})


def export_summaries(args, root, units, flags, out):
    """One run over all the project's units that writes their function
    summaries to `out`; its diagnostics are not used. Returns (status,
    output)."""
    sources = [u for u in units if Path(u).suffix not in HEADER_SUFFIXES]
    if not sources:
        return 0, ""
    command = [str(args.torch_tidy), "-checks=-*," + args.checks, config(None), "-j", "1",
               "--progress=never", f"--export-summaries={out}", *args.tidy_arg,
               *[str(root / u) for u in sources], "--", *flags]
    return execute(args, command, root, args.timeout * max(1, len(sources)))


def run_unit(args, root, unit, flags, summaries=None):
    if Path(unit).suffix in HEADER_SUFFIXES:
        flags = ["-x", "c++", *flags]  # a header on its own is C++, not C
    command = [str(args.torch_tidy), "-checks=-*," + args.checks, config(summaries),
               "--header-filter=" + header_filter(root), *args.tidy_arg,
               str(root / unit), "--", *flags]
    return execute(args, command, root, args.timeout)


def execute(args, command, root, timeout):
    try:
        done = subprocess.run(command, cwd=root, capture_output=True, text=True,
                              errors="replace", timeout=timeout)
        return done.returncode, done.stdout + done.stderr
    except subprocess.TimeoutExpired as err:
        output = err.stdout or ""
        return "timeout", output.decode(errors="replace") if isinstance(output, bytes) else output
    except OSError as err:  # e.g. the binary is being relinked
        return "not run", f"torch-tidy: error: cannot run {args.torch_tidy}: {err}"


def relative(path, root):
    """`path` as torch-tidy printed it, relative to the project root, or the
    absolute path when it lies outside."""
    full = os.path.normpath(os.path.join(root, path))
    rel = os.path.relpath(full, root)
    return full if rel.startswith("..") else rel


def parse_output(output, root):
    """(diagnostics {(file, line, check): message}, number of compiler
    errors, the tool's own first error message or "")."""
    found, errors, tool_error = {}, 0, ""
    for line in output.splitlines():
        m = DIAGNOSTIC.match(line)
        if not m:
            if not tool_error and re.match(r"^\S*torch-tidy: error: ", line):
                tool_error = line.strip()
            continue
        path, number, _, severity, message, check = m.groups()
        if severity == "error":
            errors += 1
        elif check and check.startswith("torch-"):
            found.setdefault((relative(path, root), int(number), check), message)
    return found, errors, tool_error


def include_aliases(aliases, root, args):
    """A folder of links that lets `#include "Name.h"` find the file a
    project written on a case-insensitive file system means (`Yolo.h` for
    `models/yolo.h`): {name as included: path from the project root}. The
    folder lies next to the tree, never in it."""
    if not aliases:
        return None
    folder = args.corpus_dir / ".include-aliases" / root.name
    folder.mkdir(parents=True, exist_ok=True)
    for name, target in aliases.items():
        link = folder / name
        if Path(name).is_absolute() or ".." in Path(name).parts:
            raise CannotRun(f"include alias '{name}' must be a plain relative name")
        if not (root / target).is_file():
            raise CannotRun(f"include alias '{name}': {target} is not in the tree")
        link.parent.mkdir(parents=True, exist_ok=True)
        if link.is_symlink() or link.exists():
            link.unlink()
        link.symlink_to(root / target)
    return folder


def prepare_project(folder, args):
    """The project, its sites and the units to run; or, when its tree is not
    there at the pinned commit, why it is skipped."""
    project = json.loads((folder / "project.json").read_text())
    root = args.corpus_dir / project["repository"].replace("/", "+")
    if not root.is_dir():
        return "not materialised (run materialize.py)"
    try:
        stamp = json.loads((root / STAMP).read_text())
    except (OSError, json.JSONDecodeError):
        stamp = {}
    if stamp.get("commit") != project["commit"]:
        return f"{root} is not at commit {project['commit']} (run materialize.py)"
    flags = torch_flags(project.get("torch", "1.13"), project.get("std", "c++17"),
                        args.libtorch2)
    # Dependencies Debian does not package, materialised next to the tree:
    # system headers, as an installed library's are.
    for dependency in project.get("dependencies", []):
        dep_root = args.corpus_dir / dependency["repository"].replace("/", "+")
        try:
            dep_stamp = json.loads((dep_root / STAMP).read_text())
        except (OSError, json.JSONDecodeError):
            dep_stamp = {}
        if dep_stamp.get("commit") != dependency["commit"]:
            return (f"its dependency {dependency['repository']} is not at commit "
                    f"{dependency['commit']} (run materialize.py)")
        flags += [f"-isystem{dep_root / d}" for d in dependency.get("include_dirs", [])]
    flags += [f"-I{root / d}" for d in project.get("include_dirs", [])]
    aliases = include_aliases(project.get("include_aliases", {}), root, args)
    if aliases:
        flags.append(f"-I{aliases}")
    flags += [f"-D{d}" for d in project.get("defines", [])]
    flags += project.get("extra_args", [])
    files = project.get("files", [])
    missing = [f for f in files if not (root / f).is_file()]
    units = [u for u in units_of(files, root, project.get("include_dirs", []))
             if u not in missing]
    return {"project": project, "folder": folder.name, "root": root,
            "sites": read_sites(folder, project), "missing": missing,
            "analysed": set(files) - set(missing), "flags": flags, "to_run": units}


def finish_project(r, args):
    """Waits for the project's units and gathers their diagnostics."""
    r["diagnostics"], r["units"] = {}, []
    for unit, job in r.pop("jobs").items():
        status, output = job.result()
        found, errors, tool_error = parse_output(output, r["root"])
        for key, message in found.items():
            r["diagnostics"].setdefault(key, message)
        r["units"].append({"file": unit, "exit": status, "errors": errors,
                           "diagnostics": len(found), "tool_error": tool_error})
        if args.logs:
            log = args.logs / r["folder"] / (unit + ".log")
            log.parent.mkdir(parents=True, exist_ok=True)
            log.write_text(output)
    return r


def checks_of(binary, checks="torch-*"):
    """The torch-* checks that \p binary has and \p checks (a clang-tidy
    glob) names: a site of a check it lacks or does not run is not a miss
    of it."""
    out = subprocess.run([str(binary), "--list-checks", "-checks=-*," + checks],
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise CannotRun(f"{binary} --list-checks failed: {out.stderr.strip()}")
    return {l.strip() for l in out.stdout.splitlines() if l.strip().startswith("torch-")}


def score(results, checks):
    """Per-check counts and the lists of findings, over all projects, for the
    checks that the binary has (\p checks)."""
    counts = defaultdict(lambda: {"tp": 0, "fp": 0, "miss": 0})
    lists = {"true_positives": [], "false_positives": [], "misses": []}
    for r in results:
        repo = r["project"]["repository"]
        for (file, line, check), message in sorted(r["diagnostics"].items()):
            site = r["sites"].get((file, line, check))
            label = site["label"] if site else "unlabelled"
            kind = "true_positives" if label in LEAK_LABELS else "false_positives"
            counts[check]["tp" if label in LEAK_LABELS else "fp"] += 1
            lists[kind].append({"repository": repo, "file": file, "line": line,
                                "check": check, "label": label, "message": message,
                                "reason": site["reason"] if site else ""})
        for (file, line, check), site in sorted(r["sites"].items()):
            if check not in checks:
                continue
            if (site["label"] in LEAK_LABELS and file in r["analysed"]
                    and (file, line, check) not in r["diagnostics"]):
                counts[check]["miss"] += 1
                lists["misses"].append({"repository": repo, "file": file, "line": line,
                                        "check": check, "label": site["label"],
                                        "reason": site["reason"]})
        for (file, line, check), site in r["sites"].items():
            if check in checks:
                counts[check]  # every labelled check of the binary gets a row
    return counts, lists


def ratio(num, den):
    return round(num / den, 3) if den else None


def with_ratios(c):
    return {**c, "precision": ratio(c["tp"], c["tp"] + c["fp"]),
            "recall": ratio(c["tp"], c["tp"] + c["miss"])}


def print_report(results, skipped, counts, lists):
    for s in skipped:
        print(f"skipped {s['project']}: {s['why']}")
    for r in results:
        for f in r["missing"]:
            print(f"missing {r['folder']}/{f}: listed but not in the tree")
    fmt = "{:<34} {:>5} {:>5} {:>6} {:>9} {:>7}"
    show = lambda v: "-" if v is None else f"{v:.3f}"
    print("\n" + fmt.format("check", "TP", "FP", "misses", "precision", "recall"))
    total = {"tp": 0, "fp": 0, "miss": 0}
    for check in sorted(counts):
        c = with_ratios(counts[check])
        for k in total:
            total[k] += c[k]
        print(fmt.format(check, c["tp"], c["fp"], c["miss"], show(c["precision"]),
                         show(c["recall"])))
    t = with_ratios(total)
    print(fmt.format("overall", t["tp"], t["fp"], t["miss"], show(t["precision"]),
                     show(t["recall"])))
    for title, key in (("False positives", "false_positives"), ("Misses", "misses")):
        print(f"\n{title} ({len(lists[key])}):")
        for d in lists[key]:
            print(f"  {d['repository']} {d['file']}:{d['line']} {d['check']} "
                  f"[{d['label']}] {d['reason'] or d.get('message', '')}")
    units = [(r["folder"], u) for r in results for u in r["units"]]
    failed = [(p, u) for p, u in units if u["exit"] not in (0, 1)]
    print(f"\nFiles analysed: {len(units)}; with compiler errors or no result: {len(failed)}")
    if failed:
        print(f"  {'exit':>7} {'errors':>6}  file")
        for p, u in failed:
            print(f"  {u['exit']!s:>7} {u['errors']:>6}  {p}/{u['file']}"
                  + (f"  ({u['tool_error']})" if u["tool_error"] else ""))
    return t


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("projects", nargs="*", metavar="PROJECT",
                        help="corpus folders (owner+name, or a path); default: all")
    parser.add_argument("--torch-tidy", type=Path, default=REPO / "build/bin/torch-tidy",
                        help="the binary to run (default: %(default)s)")
    parser.add_argument("-j", "--jobs", type=int, default=2,
                        help="files run at once (default: %(default)s)")
    parser.add_argument("--corpus-dir", type=Path, default=CACHE / "corpus",
                        help="where materialize.py put the trees (default: %(default)s)")
    parser.add_argument("--libtorch2", type=Path, default=Path(os.environ.get(
        "TORCH_TIDY_LIBTORCH2", CACHE / "libtorch-2.14.1")),
                        help="LibTorch 2.x prefix (default: %(default)s)")
    parser.add_argument("--json", type=Path, metavar="OUT", help="also write the results as JSON")
    parser.add_argument("--logs", type=Path, metavar="DIR",
                        help="keep torch-tidy's output for each file under DIR")
    parser.add_argument("--timeout", type=int, default=900, help="seconds per file")
    parser.add_argument("--no-summaries", dest="summaries", action="store_false",
                        help="run each file alone, without the function summaries "
                             "of the project's other files")
    parser.add_argument("--checks", default="torch-*", metavar="GLOB",
                        help="the checks to run and score, as clang-tidy's -checks "
                             "after '-*' (default: %(default)s)")
    parser.add_argument("--tidy-arg", action="append", default=[],
                        help="extra argument for torch-tidy (repeatable)")
    args = parser.parse_args()
    # Each file runs from its project's root: a relative path would not
    # name the binary there.
    args.torch_tidy = Path(args.torch_tidy).absolute()
    if not os.access(args.torch_tidy, os.X_OK):
        print(f"evaluate: no torch-tidy at {args.torch_tidy} (build it or pass --torch-tidy)",
              file=sys.stderr)
        return 2
    if args.jobs < 1:
        parser.error("-j needs at least 1")
    folders = ([Path(p) if (Path(p) / "project.json").is_file()
                else CORPUS / p.strip("/").replace("/", "+") for p in args.projects]
               or sorted(p.parent for p in CORPUS.glob("*/project.json")))
    prepared, skipped = [], []
    try:
        checks = checks_of(args.torch_tidy, args.checks)
        for folder in folders:  # every manifest is checked before anything runs
            if not (folder / "project.json").is_file():
                raise CannotRun(f"no project.json in {folder}")
            try:
                r = prepare_project(folder, args)
            except KeyError as err:
                raise CannotRun(f"{folder / 'project.json'} or its sites.csv lacks {err}")
            if isinstance(r, str):
                skipped.append({"project": folder.name, "why": r})
            else:
                prepared.append(r)
        summaries_dir = None
        if args.summaries:
            summaries_dir = args.corpus_dir / ".summaries"
            summaries_dir.mkdir(parents=True, exist_ok=True)
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            exports = {}
            for r in prepared:
                r["summaries"] = None
                if summaries_dir:
                    out = summaries_dir / (r["folder"] + ".json")
                    if out.exists():
                        out.unlink()
                    r["summaries"] = out
                    exports[r["folder"]] = pool.submit(
                        export_summaries, args, r["root"], r["to_run"], r["flags"], out)
            for r in prepared:
                if r["summaries"]:
                    exports[r["folder"]].result()
                    if not r["summaries"].is_file():  # the export failed
                        r["summaries"] = None
                r["jobs"] = {u: pool.submit(run_unit, args, r["root"], u, r["flags"],
                                            r["summaries"])
                             for u in r["to_run"]}
            results = [finish_project(r, args) for r in prepared]
    except (CannotRun, OSError, json.JSONDecodeError) as err:
        print(f"evaluate: {err}", file=sys.stderr)
        return 2
    counts, lists = score(results, checks)
    total = print_report(results, skipped, counts, lists)
    if args.json:
        report = {"skipped": skipped,
                  "checks": {c: with_ratios(v) for c, v in sorted(counts.items())},
                  "overall": total, **lists,
                  "files": [{"project": r["folder"], **u} for r in results for u in r["units"]],
                  "missing": [f"{r['folder']}/{f}" for r in results for f in r["missing"]]}
        tmp = args.json.with_name(args.json.name + ".tmp")
        tmp.write_text(json.dumps(report, indent=1) + "\n")
        tmp.replace(args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
