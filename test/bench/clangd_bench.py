#!/usr/bin/env python3
"""Editor latency of torch-clangd against plain clangd-19, side by side.

  test/bench/clangd_bench.py [--build build] [--runs 5] [--edits 10]
                             [--work DIR] [--background-index]
                             [--install-baseline]

Generates a ~300-line training file that includes <torch/torch.h> (Debian's
libtorch-dev), with a compile_commands.json, and drives each server over LSP
as an editor does (test/clangd/Inputs/lsp.py): open the file, wait for the
first diagnostics (the preamble of <torch/torch.h> is built first), then
edit the file's own code --edits times, waiting each time for the
diagnostics of the new version. torch-clangd runs with the torch-* checks
enabled in .clangd and nothing else; clangd-19 (Debian's package `clangd-19`,
the baseline) with no clang-tidy checks (--clang-tidy=false). The servers
take turns, a fresh process each run, and the script prints the ratios of
medians against their targets:

  1. first diagnostics after opening: torch-clangd / clangd-19   <= 1.2
  2. diagnostics after an edit (preamble built): same            <= 1.2

and, for information, each server's peak memory, and the time the torch-*
checks take in one AST build (`--check-tidy-time`).

clangd's background index is off for both unless --background-index is
given: it competes for the same cores while it indexes the whole of
LibTorch, and changes no diagnostic.
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "test", "clangd", "Inputs"))
sys.path.insert(0, HERE)
import bench  # noqa: E402  (the training file torch-tidy's benchmark uses)
import lsp  # noqa: E402
import workspace  # noqa: E402

# Findings for the checks to report: a running loss, a kept output, and an
# evaluation without a guard.
LEAKY = """
double leaky_epoch(torch::nn::Sequential &model, torch::optim::SGD &opt,
                   const std::vector<torch::Tensor> &xs, const torch::Tensor &y) {
  torch::Tensor running = torch::zeros({});
  std::vector<torch::Tensor> outputs;
  for (size_t step = 0; step < xs.size(); ++step) {
    opt.zero_grad();
    auto out = model->forward(xs[step]);
    auto loss = torch::mse_loss(out, y);
    loss.backward();
    opt.step();
    running += loss;
    outputs.push_back(out);
  }
  return running.item<double>();
}

double evaluate_leaky(torch::nn::Sequential &model, const torch::Tensor &x) {
  model->eval();
  auto out = model->forward(x);
  return out.sum().item<double>();
}
"""


EDITED = "int edited() { return %d; }\n"


def make_file(path):
    bench.make_tu(path, 0)
    with open(path, "a") as f:
        f.write(LEAKY)
        f.write(EDITED % 0)


def peak_rss_mb(pid):
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024.0
    except OSError:
        pass
    return float("nan")


def session(argv, folder, source, edits, timeout):
    """One editor session; returns (open seconds, [edit seconds], peak MB,
    torch findings on opening)."""
    with open(source) as f:
        text = f.read()
    with lsp.Client(argv, os.path.join(folder, "server.log")) as client:
        client.initialize(folder)
        start = time.monotonic()
        client.open(source, text, version=1)
        diags, arrived = client.wait_diagnostics(source, 1, timeout)
        opened = arrived - start
        findings = len(lsp.torch_findings(diags))
        latencies = []
        for i in range(edits):
            # The file's own code changes; its #includes stay.
            text = text.replace(EDITED % i, EDITED % (i + 1))
            start = time.monotonic()
            client.change(source, text, version=i + 2)
            _, arrived = client.wait_diagnostics(source, i + 2, timeout)
            latencies.append(arrived - start)
        peak = peak_rss_mb(client.proc.pid)
        if client.shutdown() != 0:
            sys.exit("clangd_bench.py: %s did not exit cleanly (log: %s)"
                     % (argv[0], os.path.join(folder, "server.log")))
    return opened, latencies, peak, findings


def tidy_time(server, folder, source):
    """The torch-* checks' share of one AST build, from clangd's own
    --check-tidy-time (which builds the AST with and without each check)."""
    p = subprocess.run([server, "--check=" + source, "--check-tidy-time=torch-*",
                        "--background-index=false"], cwd=folder,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True, errors="replace")
    lines = [l.split("] ", 1)[-1] for l in p.stdout.splitlines()]
    return [l.strip() for l in lines
            if re.match(r"^\s+torch-[\w-]+ = -?\d+%$", l)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--baseline", default="clangd-19")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--edits", type=int, default=10)
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--work", default="/tmp/torch-clangd-bench")
    ap.add_argument("--background-index", action="store_true")
    ap.add_argument("--install-baseline", action="store_true",
                    help="apt-get install clangd-19 if it is missing")
    a = ap.parse_args()

    baseline = shutil.which(a.baseline)
    if not baseline and a.install_baseline:
        subprocess.run(["apt-get", "install", "-y", "-q", "--no-install-recommends",
                        "clangd-19"], check=True,
                       env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"))
        baseline = shutil.which(a.baseline)
    if not baseline:
        sys.exit("clangd_bench.py: %s not found; install Debian's clangd-19 "
                 "(apt-get install clangd-19, or pass --install-baseline)"
                 % a.baseline)
    server = os.path.join(os.path.abspath(a.build), "bin", "torch-clangd")
    if not os.access(server, os.X_OK):
        sys.exit("clangd_bench.py: no %s; build it first" % server)

    shutil.rmtree(a.work, ignore_errors=True)
    flags = ["-std=c++17", "-isystem", bench.TORCH]
    index = "--background-index=%s" % ("true" if a.background_index else "false")
    generated = os.path.join(a.work, "train.cpp")
    os.makedirs(a.work)
    make_file(generated)
    lines = sum(1 for _ in open(generated))
    setups = {
        "clangd-19": ([baseline, "--clang-tidy=false", index],
                      "Diagnostics:\n  ClangTidy:\n    Remove: ['*']\n"),
        "torch-clangd": ([server, index], workspace.CLANGD_CONFIG),
    }
    sources = {}
    for name, (_, config) in setups.items():
        (sources[name],) = workspace.make(os.path.join(a.work, name), [generated],
                                          flags, "commands", config)

    results = {name: {"open": [], "edit": [], "peak": []} for name in setups}
    findings = {}
    for r in range(a.runs):
        order = list(setups) if r % 2 == 0 else list(reversed(list(setups)))
        for name in order:
            argv, _ = setups[name]
            opened, edits, peak, found = session(
                argv, os.path.join(a.work, name), sources[name], a.edits, a.timeout)
            results[name]["open"].append(opened)
            results[name]["edit"].append(statistics.median(edits))
            results[name]["peak"].append(peak)
            findings[name] = found
            print("run %d %-12s open %.2f s, edits median %.3f s (min %.3f, max %.3f), "
                  "peak %.0f MB, %d torch findings"
                  % (r + 1, name, opened, statistics.median(edits), min(edits),
                     max(edits), peak, found), file=sys.stderr)
    if findings["torch-clangd"] == 0:
        sys.exit("clangd_bench.py: torch-clangd reported no torch finding: "
                 "the checks did not run")

    med = {name: {k: statistics.median(v) for k, v in res.items()}
           for name, res in results.items()}
    base, ours = med["clangd-19"], med["torch-clangd"]
    rows = [
        ("1. first diagnostics after opening", ours["open"], base["open"], 1.2),
        ("2. diagnostics after an edit (preamble built)", ours["edit"], base["edit"], 1.2),
    ]
    print("torch-clangd benchmark: %d-line file with <torch/torch.h>, %d runs of "
          "%d edits, background index %s; %s" % (
              lines, a.runs, a.edits, "on" if a.background_index else "off",
              subprocess.run([baseline, "--version"], stdout=subprocess.PIPE,
                             universal_newlines=True).stdout.splitlines()[0]))
    print("torch findings: %d" % findings["torch-clangd"])
    ok = True
    for name, mine, theirs, target in rows:
        ratio = mine / theirs
        met = ratio <= target
        ok &= met
        print("%-46s torch-clangd %7.3f s / clangd-19 %7.3f s = %5.3f  "
              "(target <= %.1f)  %s" % (name, mine, theirs, ratio, target,
                                       "met" if met else "NOT MET"))
    print("peak memory: torch-clangd %.0f MB, clangd-19 %.0f MB"
          % (ours["peak"], base["peak"]))
    for line in tidy_time(server, os.path.join(a.work, "torch-clangd"),
                          sources["torch-clangd"]):
        print("time a check adds to an AST build: " + line)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
