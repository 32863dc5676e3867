#!/usr/bin/env python3
"""Project-scale speed and memory of torch-tidy against run-clang-tidy-19.

  test/bench/scale_bench.py [--build build] [--runs 3] [--rct-runs 3]
                            [--sizes 8,32,128] [--rct-sizes 8,32] [--work DIR]

Generates projects of N units (test/bench/scale_project.py, Debian's
LibTorch 1.13 headers) and, for each N, runs at -j 2, taking turns:

  rct       run-clang-tidy-19 -j 2 with the plugin (only for --rct-sizes;
            for a larger N its time is extrapolated linearly from the two
            largest measured sizes, and the table says so)
  cold      torch-tidy with an empty cache
  unit      torch-tidy again after one unit's own code changed
  header    torch-tidy again after project/data.h changed (the units of
            even folders include it: they are analysed again, no other)
  subset    torch-tidy with an empty cache on just the units that include
            project/data.h: the cold run's cost of those units

and samples the memory of the whole run (the parent and its workers) every
50 ms: the peak of their summed resident sizes, and the peak of any one
process. It prints a table of medians and every target with its ratio:

  cold / rct                       <= 0.25 (N = 8), <= 0.15 (N = 32)
  unit / rct                       <= 0.05
  header / subset                  <= 1.0
  cold per unit, N = 128 / N = 32  <= 1.2 (linear)
  peak of one worker / peak of a single-unit cold run (which builds the
  preamble)                        <= 1.0
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import scale_project  # noqa: E402

TORCH = "/usr/include/torch/csrc/api/include"
CHECKS = "-checks=-*,torch-*"


def tree(root):
    """The process \\p root and all its descendants."""
    children = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % name) as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(name))
    out, todo = [], [root]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(children.get(p, []))
    return out


def status_kb(pid, field):
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def role(pid, roles):
    """What process pid of a torch-tidy run is: the one that builds a shared
    preamble, another worker, or the run itself."""
    if pid not in roles:
        try:
            with open("/proc/%d/cmdline" % pid, "rb") as f:
                args = f.read().split(b"\0")
        except OSError:
            args = []
        roles[pid] = "builder" if b"--torch-tidy-build-preambles" in args else \
            "worker" if any(a.startswith(b"--torch-tidy-worker") for a in args) else "other"
    return roles[pid]


def measure(cmd, cwd=None):
    """Wall seconds, peak summed RSS of the process tree (KB), peak RSS of
    any one process of it (KB), and of any worker that built no preamble."""
    start = time.monotonic()
    p = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peak = {"total": 0, "process": 0, "worker": 0}
    done = threading.Event()
    roles = {}

    def sample():
        while not done.is_set():
            total = 0
            for pid in tree(p.pid):
                total += status_kb(pid, "VmRSS")
                hwm = status_kb(pid, "VmHWM")
                peak["process"] = max(peak["process"], hwm)
                if role(pid, roles) == "worker":
                    peak["worker"] = max(peak["worker"], hwm)
            peak["total"] = max(peak["total"], total)
            done.wait(0.05)

    t = threading.Thread(target=sample)
    t.start()
    p.wait()
    wall = time.monotonic() - start
    done.set()
    t.join()
    if p.returncode not in (0, 1):
        sys.exit("failed (%d): %s" % (p.returncode, " ".join(cmd)))
    return wall, peak["total"], peak["process"], peak["worker"]


def folders_for(n):
    return max(4, n // 8)


def bench_size(a, n, tidy, plugin):
    """The medians of every measure for a project of n units."""
    proj = os.path.join(a.work, "n%d" % n)
    shutil.rmtree(proj, ignore_errors=True)
    folders = folders_for(n)
    units = scale_project.make(proj, n, folders, [TORCH])
    including = scale_project.units_including_data(units, folders)
    build = os.path.join(proj, "build")
    cache, subcache = os.path.join(a.work, "cache"), os.path.join(a.work, "subcache")
    run = [tidy, CHECKS, "-p", build, "-j", "2", "--cache-dir=" + cache]
    t = {k: [] for k in ("rct", "cold", "unit", "header", "subset")}
    mem = {"total": [], "process": [], "worker": []}
    for r in range(a.runs):
        if n in a.rct_sizes and r < a.rct_runs:
            t["rct"].append(measure(["run-clang-tidy-19", "-j", "2", "-load=" + plugin, CHECKS,
                                     "-quiet", "-p", build], cwd=proj)[0])
        shutil.rmtree(cache, ignore_errors=True)
        wall, total, process, worker = measure(run, cwd=proj)
        t["cold"].append(wall)
        mem["total"].append(total)
        mem["process"].append(process)
        mem["worker"].append(worker)
        scale_project.edit_unit(units[(r * 7) % n], r)
        t["unit"].append(measure(run, cwd=proj)[0])
        scale_project.edit_header(proj, r)
        t["header"].append(measure(run, cwd=proj)[0])
        shutil.rmtree(subcache, ignore_errors=True)
        t["subset"].append(measure([tidy, CHECKS, "-p", build, "-j", "2",
                                    "--cache-dir=" + subcache] + including, cwd=proj)[0])
        print("N=%d run %d: %s" % (n, r + 1, ", ".join(
            "%s %.1fs" % (k, v[-1]) for k, v in t.items() if v)), file=sys.stderr)
    med = {k: statistics.median(v) for k, v in t.items() if v}
    med.update({"mem_" + k: statistics.median(v) for k, v in mem.items()})
    med["folders"], med["including"] = folders, len(including)
    return med


def single_unit_peak(a, tidy):
    """Peak RSS of a cold run on one unit alone (it builds the preamble)."""
    proj = os.path.join(a.work, "single")
    shutil.rmtree(proj, ignore_errors=True)
    units = scale_project.make(proj, 1, 1, [TORCH])
    cache = os.path.join(a.work, "single-cache")
    peaks = []
    for _ in range(a.runs):
        shutil.rmtree(cache, ignore_errors=True)
        peaks.append(measure([tidy, CHECKS, "-p", os.path.join(proj, "build"),
                              "--cache-dir=" + cache, units[0]], cwd=proj)[2])
    return statistics.median(peaks)


def extrapolate(results, rct_sizes):
    """rct for sizes not measured, linear in N through the two largest
    measured sizes."""
    measured = sorted(n for n in results if "rct" in results[n])
    if len(measured) < 2:
        return
    n1, n2 = measured[-2], measured[-1]
    slope = (results[n2]["rct"] - results[n1]["rct"]) / (n2 - n1)
    for n, m in results.items():
        if "rct" not in m:
            m["rct"] = results[n2]["rct"] + slope * (n - n2)
            m["rct_extrapolated"] = True


def report(results, single_peak, a):
    print("torch-tidy at project scale: -j 2, medians of %d runs (run-clang-tidy: %d)"
          % (a.runs, a.rct_runs))
    print("%5s %7s %13s %8s %14s %14s %16s %9s %11s %13s %12s" % (
        "N", "folders", "run-clang-tidy", "cold", "1 unit edited", "header edited",
        "those units cold", "cold/unit", "run peak", "process peak", "reader peak"))
    for n in sorted(results):
        m = results[n]
        rct = "%.1f s%s" % (m["rct"], "*" if m.get("rct_extrapolated") else "") \
            if "rct" in m else "-"
        print("%5d %7d %13s %7.1fs %13.2fs %10.1fs (%d) %15.1fs %8.2fs %8d MB %10d MB %9d MB" % (
            n, m["folders"], rct, m["cold"], m["unit"], m["header"], m["including"],
            m["subset"], m["cold"] / n, m["mem_total"] // 1024, m["mem_process"] // 1024,
            m["mem_worker"] // 1024))
    if any(m.get("rct_extrapolated") for m in results.values()):
        print("* extrapolated linearly from the two largest sizes measured")
    print("run peak: the summed resident size of the run and its workers; process peak:"
          " the largest of one of them (a worker that builds a preamble); reader peak:"
          " the largest of a worker that reads one")
    print("single-unit cold run (it builds the preamble): peak %d MB" % (single_peak // 1024))
    rows = []
    for n, target in ((8, 0.25), (32, 0.15)):
        if "rct" in results.get(n, {}):
            rows.append(("cold, N = %d / run-clang-tidy" % n, results[n]["cold"] / results[n]["rct"], target))
    for n in sorted(results):
        m = results[n]
        if "rct" in m:
            rows.append(("one unit edited, N = %d / run-clang-tidy%s"
                         % (n, "*" if m.get("rct_extrapolated") else ""), m["unit"] / m["rct"], 0.05))
        rows.append(("header edited, N = %d / cold run of its %d units" % (n, m["including"]),
                     m["header"] / m["subset"], 1.0))
    if 32 in results and 128 in results:
        rows.append(("cold time per unit, N = 128 / N = 32",
                     (results[128]["cold"] / 128) / (results[32]["cold"] / 32), 1.2))
    # In MB: the worker that builds a preamble does what a single-unit cold
    # run does, and their peaks differ by the allocator's noise.
    process = max(m["mem_process"] for m in results.values()) // 1024
    rows.append(("peak of one process / single-unit cold run (MB)",
                 process / max(1, single_peak // 1024), 1.0))
    ok = True
    for name, ratio, target in rows:
        met = ratio <= target
        ok &= met
        print("%-58s %6.3f  (target <= %.2f)  %s" % (name, ratio, target, "met" if met else "NOT MET"))
    return ok


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--rct-runs", type=int, default=3)
    ap.add_argument("--sizes", default="8,32,128")
    ap.add_argument("--rct-sizes", default="8,32")
    ap.add_argument("--work", default="/tmp/torch-tidy-scale-bench")
    a = ap.parse_args()
    a.sizes = [int(s) for s in a.sizes.split(",")]
    a.rct_sizes = [int(s) for s in a.rct_sizes.split(",") if s]
    a.rct_runs = min(a.rct_runs, a.runs)
    os.makedirs(a.work, exist_ok=True)
    # A copy: rebuilding while the benchmark runs changes nothing it measures.
    tidy = os.path.join(a.work, "torch-tidy")
    plugin = os.path.join(a.work, "TorchTidyModule.so")
    shutil.copy2(os.path.join(a.build, "bin", "torch-tidy"), tidy)
    shutil.copy2(os.path.join(a.build, "lib", "TorchTidyModule.so"), plugin)
    results = {n: bench_size(a, n, tidy, plugin) for n in a.sizes}
    extrapolate(results, a.rct_sizes)
    single_peak = single_unit_peak(a, tidy)
    return 0 if report(results, single_peak, a) else 1


if __name__ == "__main__":
    sys.exit(main())
