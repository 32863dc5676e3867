#!/usr/bin/env python3
"""The cost of a project run's function summaries: the first stage, and the
units analysed again with what it found.

  test/bench/summaries_bench.py [--build build] [--units 8] [--runs 3]
                                [--jobs 2] [--work DIR]
                                [--torch-include DIR[:DIR...]]
                                [--flag=--no-preamble-cache ...]

Generates a project of N units (test/bench/scale_project.py, Debian's
LibTorch 1.13 headers by default) plus a unit of shared helpers
(src/helpers.cpp: a loss that runs the model, features computed under a
guard) that every fourth unit calls, so that some units' analyses depend
on another unit's functions as in a real project. Then, taking turns, each
with an empty cache:

  without   torch-tidy -p build --no-project-summaries: each unit alone
  with      torch-tidy -p build: every unit summarised, the summaries
            merged, the units they answer something for analysed again

and, with the caches those runs left, after one calling unit's own code
changed (`edit with` / `edit without`). It prints the medians and the
first stage's cost as a ratio against the cold run without it:

  (with - without) / without       target <= 0.10

With the preamble cache (the default) a unit analysed again reads the
precompiled LibTorch headers its first analysis built, so a second
analysis costs little next to the cold run's preamble build;
`--flag=--no-preamble-cache` measures the case where every analysis parses
the headers. This is a measurement, not a test: lit does not run it.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import scale_project  # noqa: E402

TORCH = "/usr/include/torch/csrc/api/include"

HELPERS_H = """// Helpers defined in src/helpers.cpp: a unit that includes only this
// header sees no body.
#pragma once
#include <torch/torch.h>
#include "project/model.h"

namespace project {
// The loss of a batch: runs the model.
torch::Tensor batch_loss(Net &net, const torch::Tensor &x, const torch::Tensor &y);
// Features of a batch for logging, computed under a guard.
torch::Tensor features(Net &net, const torch::Tensor &x);
} // namespace project
"""

HELPERS_CPP = """// The helpers every fourth unit calls.
#include "project/helpers.h"

namespace project {
torch::Tensor batch_loss(Net &net, const torch::Tensor &x, const torch::Tensor &y) {
  return torch::mse_loss(net->forward(x), y);
}

torch::Tensor features(Net &net, const torch::Tensor &x) {
  torch::NoGradGuard no_grad;
  return net->forward(x);
}
} // namespace project
"""

CALLER = """
#include "project/helpers.h"

// Uses the helpers of src/helpers.cpp.
double monitor_{index}(project::Net &net, const std::vector<torch::Tensor> &xs,
                      const torch::Tensor &y) {{
  static std::vector<torch::Tensor> logged;
  torch::Tensor total = torch::zeros({{}});
  for (const auto &x : xs) {{
    total = total + project::batch_loss(net, x, y);
    logged.push_back(project::features(net, x));
  }}
  return total.item<double>();
}}
"""


def make(out, units, torch_includes):
    paths = scale_project.make(out, units, 4, torch_includes)
    with open(os.path.join(out, "include", "project", "helpers.h"), "w") as f:
        f.write(HELPERS_H)
    helpers = os.path.join(out, "src", "helpers.cpp")
    with open(helpers, "w") as f:
        f.write(HELPERS_CPP)
    callers = []
    for i, p in enumerate(paths):
        if i % 4 == 1:
            with open(p, "a") as f:
                f.write(CALLER.format(index=i))
            callers.append(p)
    db = os.path.join(out, "build", "compile_commands.json")
    import json
    with open(db) as f:
        entries = json.load(f)
    first = entries[0]
    args = [a for a in first["arguments"]]
    args[args.index("-c") + 1] = helpers
    args[args.index("-o") + 1] = "helpers.o"
    entries.append({"directory": first["directory"], "file": helpers,
                    "arguments": args})
    with open(db, "w") as f:
        json.dump(entries, f, indent=1)
    return callers


def timed(cmd):
    start = time.monotonic()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.monotonic() - start


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--units", type=int, default=8)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--work")
    ap.add_argument("--torch-include", action="append", default=[])
    ap.add_argument("--flag", action="append", default=[],
                    help="a flag for every torch-tidy run")
    a = ap.parse_args()
    tidy = os.path.join(a.build, "bin", "torch-tidy")
    includes = [d for t in (a.torch_include or [TORCH]) for d in t.split(":")]
    work = a.work or tempfile.mkdtemp(prefix="summaries-bench-")
    project = os.path.join(work, "project")
    shutil.rmtree(project, ignore_errors=True)
    callers = make(project, a.units, includes)
    build = os.path.join(project, "build")

    times = {"without": [], "with": [], "edit without": [], "edit with": []}
    for run in range(a.runs):
        for name, extra in (("without", ["--no-project-summaries"]), ("with", [])):
            cache = os.path.join(work, "cache-" + name.replace(" ", "-"))
            shutil.rmtree(cache, ignore_errors=True)
            cmd = [tidy, "-p", build, "-j", str(a.jobs), "--cache-dir=" + cache] + \
                a.flag + extra
            times[name].append(timed(cmd))
            scale_project.edit_unit(callers[0], 100 * run + len(name))
            times["edit " + name].append(timed(cmd))
    print("%d units (+ helpers.cpp, called by %d of them), -j %d, %d runs each%s"
          % (a.units, len(callers), a.jobs, a.runs,
             "".join(" " + f for f in a.flag)))
    for name, values in times.items():
        print("  %-13s %7.2f s (median; %s)" % (
            name, statistics.median(values), ", ".join("%.2f" % v for v in values)))
    cold = statistics.median(times["without"])
    ratio = (statistics.median(times["with"]) - cold) / cold
    print("first stage and second analyses over a cold run: %+.1f%% (target <= +10%%)"
          % (100 * ratio))
    edit = statistics.median(times["edit without"])
    print("after one caller's edit: %+.1f%%"
          % (100 * (statistics.median(times["edit with"]) - edit) / edit))
    return 0


if __name__ == "__main__":
    sys.exit(main())
