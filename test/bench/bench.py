#!/usr/bin/env python3
"""Speed and memory of torch-tidy against its baselines, side by side.

  test/bench/bench.py [--build build] [--runs 5] [--project-runs 5] [--work DIR]

Generates a ~300-line training file that includes <torch/torch.h> (Debian's
libtorch-dev) and a project of 8 such files with a compilation database, then
runs torch-tidy and each baseline alternately and prints, for every target,
the ratio of medians and whether it meets the target:

  1. cold single TU:   torch-tidy (empty cache) / clang++-19 -fsyntax-only  <= 1.1
                       torch-tidy (empty cache) / clang-tidy-19 -load plugin <= 0.9
  2. warm single TU:   the TU's own code edited, cache present / plugin   <= 0.2
  3. unchanged TU:     re-run on the same file / plugin                    <= 0.05
  4. project, -j 2:    cold / run-clang-tidy-19 -j 2 -load                 <= 0.5
                       warm (one TU edited, cache present) / same          <= 0.2
  5. peak memory of one torch-tidy run (empty caches: the run that also
     builds the preamble) / of the plugin run                            <= 1.0
"""
import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TORCH = "/usr/include/torch/csrc/api/include"
FLAGS = ["-std=c++17", "-isystem", TORCH]
CHECKS = "-checks=-*,torch-*"

FUNCTION = """
// Step {i}: a training loop with a running loss, an evaluation and a buffer.
double train_{i}(torch::nn::Sequential &model, torch::optim::SGD &opt,
                 const std::vector<torch::Tensor> &xs, const torch::Tensor &y) {{
  torch::Tensor running = torch::zeros({{}});
  std::vector<torch::Tensor> outputs;
  for (size_t step = 0; step < xs.size(); ++step) {{
    opt.zero_grad();
    auto out = model->forward(xs[step]);
    auto loss = torch::mse_loss(out, y);
    loss.backward();
    opt.step();
    running += loss;
    outputs.push_back(out.detach());
  }}
  return running.item<double>() / static_cast<double>(xs.size() + {i});
}}

double evaluate_{i}(torch::nn::Sequential &model, const torch::Tensor &x) {{
  model->eval();
  torch::NoGradGuard no_grad;
  auto out = model->forward(x);
  return out.sum().item<double>() + {i};
}}
"""


def make_tu(path, seed, functions=12):
    with open(path, "w") as f:
        f.write("#include <torch/torch.h>\n#include <vector>\n\n")
        f.write("// Generated for the benchmark (seed %d).\n" % seed)
        for i in range(functions):
            f.write(FUNCTION.format(i=seed * 100 + i))


def measure(cmd, cwd=None):
    """Wall seconds and peak RSS (KB) of one run of cmd."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.monotonic()
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.monotonic() - start
    # ru_maxrss of children is a maximum over all children so far; use
    # /usr/bin/time for a per-run figure when available.
    return wall, p.returncode


def peak_kb(cmd, cwd=None):
    p = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, cwd=cwd,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, universal_newlines=True,
                       errors="replace")
    return int(p.stderr.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--project-runs", type=int, default=5)
    ap.add_argument("--work", default="/tmp/torch-tidy-bench")
    a = ap.parse_args()
    tidy = os.path.join(a.build, "bin", "torch-tidy")
    plugin = os.path.join(a.build, "lib", "TorchTidyModule.so")
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    single = os.path.join(a.work, "train.cpp")
    make_tu(single, 0)
    lines = sum(1 for _ in open(single))
    cache = os.path.join(a.work, "cache")

    def tt(extra, f=single):
        return [tidy, CHECKS] + extra + [f, "--"] + FLAGS

    plugin_cmd = ["clang-tidy-19", "-load=" + plugin, CHECKS, single, "--"] + FLAGS
    syntax_cmd = ["clang++-19", "-fsyntax-only"] + FLAGS + [single]
    times = {k: [] for k in ("syntax", "plugin", "cold", "warm", "unchanged")}
    for r in range(a.runs):
        times["syntax"].append(measure(syntax_cmd)[0])
        times["plugin"].append(measure(plugin_cmd)[0])
        shutil.rmtree(cache, ignore_errors=True)
        times["cold"].append(measure(tt(["--cache-dir=" + cache]))[0])
        times["unchanged"].append(measure(tt(["--cache-dir=" + cache]))[0])
        with open(single, "a") as f:  # the TU's own code changes
            f.write("\nint edited_%d() { return %d; }\n" % (r, r))
        times["warm"].append(measure(tt(["--cache-dir=" + cache]))[0])
        print("run %d: %s" % (r + 1, ", ".join("%s %.2fs" % (k, v[-1]) for k, v in times.items())),
              file=sys.stderr)
    med = {k: statistics.median(v) for k, v in times.items()}
    mem_plugin = peak_kb(plugin_cmd)
    shutil.rmtree(cache, ignore_errors=True)
    mem_tidy = peak_kb(tt(["--cache-dir=" + cache]))

    # The project.
    proj = os.path.join(a.work, "project")
    os.makedirs(os.path.join(proj, "build"))
    entries = []
    for i in range(8):
        p = os.path.join(proj, "unit%d.cpp" % i)
        make_tu(p, i + 1)
        entries.append({"directory": os.path.join(proj, "build"), "file": p,
                        "arguments": ["clang++"] + FLAGS + ["-c", p]})
    json.dump(entries, open(os.path.join(proj, "build", "compile_commands.json"), "w"))
    pcache = os.path.join(a.work, "pcache")
    ptimes = {k: [] for k in ("run-clang-tidy", "cold", "warm")}
    rct = ["run-clang-tidy-19", "-j", "2", "-load=" + plugin, CHECKS, "-quiet",
           "-p", os.path.join(proj, "build")]
    for r in range(a.project_runs):
        ptimes["run-clang-tidy"].append(measure(rct, cwd=proj)[0])
        shutil.rmtree(pcache, ignore_errors=True)
        ptimes["cold"].append(measure([tidy, CHECKS, "-p", os.path.join(proj, "build"), "-j", "2",
                                       "--cache-dir=" + pcache], cwd=proj)[0])
        with open(os.path.join(proj, "unit0.cpp"), "a") as f:
            f.write("\nint edited_%d() { return %d; }\n" % (r, r))
        ptimes["warm"].append(measure([tidy, CHECKS, "-p", os.path.join(proj, "build"), "-j", "2",
                                       "--cache-dir=" + pcache], cwd=proj)[0])
        print("project run %d: %s" % (r + 1, ", ".join("%s %.2fs" % (k, v[-1]) for k, v in ptimes.items())),
              file=sys.stderr)
    pmed = {k: statistics.median(v) for k, v in ptimes.items()}

    rows = [
        ("1. cold single TU / clang++ -fsyntax-only", med["cold"] / med["syntax"], 1.1),
        ("1. cold single TU / clang-tidy plugin", med["cold"] / med["plugin"], 0.9),
        ("2. warm single TU (own code edited) / plugin", med["warm"] / med["plugin"], 0.2),
        ("3. unchanged TU re-run / plugin", med["unchanged"] / med["plugin"], 0.05),
        ("4. project -j 2 cold / run-clang-tidy -j 2", pmed["cold"] / pmed["run-clang-tidy"], 0.5),
        ("4. project -j 2 warm / run-clang-tidy -j 2", pmed["warm"] / pmed["run-clang-tidy"], 0.2),
        ("5. peak memory / plugin", mem_tidy / mem_plugin, 1.0),
    ]
    print("torch-tidy benchmark: %d-line TU with <torch/torch.h>, %d runs; project of 8 TUs, %d runs"
          % (lines, a.runs, a.project_runs))
    print("medians: syntax %.2fs, plugin %.2fs, torch-tidy cold %.2fs, warm %.2fs, unchanged %.3fs"
          % (med["syntax"], med["plugin"], med["cold"], med["warm"], med["unchanged"]))
    print("project medians: run-clang-tidy %.2fs, torch-tidy cold %.2fs, warm %.2fs"
          % (pmed["run-clang-tidy"], pmed["cold"], pmed["warm"]))
    print("peak memory: plugin %d MB, torch-tidy %d MB" % (mem_plugin // 1024, mem_tidy // 1024))
    ok = True
    for name, ratio, target in rows:
        met = ratio <= target
        ok &= met
        print("%-48s %6.3f  (target <= %.2f)  %s" % (name, ratio, target, "met" if met else "NOT MET"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
