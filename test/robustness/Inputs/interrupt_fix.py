#!/usr/bin/env python3
"""interrupt_fix.py TORCH_TIDY MOCK_TORCH_INCLUDE WORKDIR

Interrupts --fix at many moments and checks that every file is, byte for
byte, either as it was or as a complete --fix leaves it, that the modes of
the files are kept, and that no temporary file (.NAME.torch-tidy-XXXXXX) is
left behind.

A unit includes N headers, each with one fix, so one run writes N + 1 files.
The signals are sent at delays measured from the start of the process (they
land in the analysis) and, through the test hook TORCH_TIDY_TEST_BEFORE_FIX,
at delays measured from the moment the fixes start to be written."""
import os
import shutil
import signal
import stat
import subprocess
import sys
import time

torch_tidy, mock, work = sys.argv[1:4]
N = 40

HEADER = """#pragma once
#include <torch/torch.h>
#include <vector>

inline double sum_{i}(torch::nn::Linear &model,
                     const std::vector<torch::Tensor> &xs) {{
  torch::Tensor total = torch::zeros({{}});
  for (const auto &x : xs)
    total += model(x).sum();
  return total.item<double>();
}}
""" + "// padding so that each write takes a little while\n" * 2000


def make(dir):
    shutil.rmtree(dir, ignore_errors=True)
    os.makedirs(dir)
    with open(os.path.join(dir, "main.cpp"), "w") as f:
        for i in range(N):
            f.write('#include "h%d.h"\n' % i)
        f.write("\ndouble evaluate(torch::nn::Linear &model, const torch::Tensor &x) {\n"
                "  model->eval();\n  return model(x).sum().item<double>();\n}\n")
    for i in range(N):
        with open(os.path.join(dir, "h%d.h" % i), "w") as f:
            f.write(HEADER.format(i=i))
        os.chmod(os.path.join(dir, "h%d.h" % i), 0o640 if i % 2 else 0o664)


def snapshot(dir):
    out = {}
    for name in sorted(os.listdir(dir)):
        p = os.path.join(dir, name)
        with open(p, "rb") as f:
            out[name] = (f.read(), stat.S_IMODE(os.stat(p).st_mode))
    return out


def command(dir):
    return [torch_tidy, "-checks=-*,torch-*", "-header-filter=.*", "--fix",
            os.path.join(dir, "main.cpp"), "--", "-std=c++17", "-isystem", mock]


failures = []
original_dir = os.path.join(work, "original")
make(original_dir)
original = snapshot(original_dir)

fixed_dir = os.path.join(work, "fixed")
make(fixed_dir)
subprocess.run(command(fixed_dir), check=True, stdout=subprocess.DEVNULL,
               stderr=subprocess.DEVNULL)
fixed = snapshot(fixed_dir)
changed = [n for n in original if original[n][0] != fixed[n][0]]
if len(changed) != N + 1:
    failures.append("a complete --fix changed %d files, expected %d" % (len(changed), N + 1))

# A second --fix changes nothing.
subprocess.run(command(fixed_dir), check=True, stdout=subprocess.DEVNULL,
               stderr=subprocess.DEVNULL)
if snapshot(fixed_dir) != fixed:
    failures.append("a second --fix changed the files")

runs = []
for i, delay in enumerate([0.0, 0.0005, 0.001, 0.002, 0.003, 0.005, 0.008, 0.012, 0.02, 0.05]):
    runs.append(("fix+%gs" % delay, "hook", delay,
                 signal.SIGINT if i % 2 else signal.SIGTERM))
for i, delay in enumerate([0.05, 0.3]):
    runs.append(("start+%gs" % delay, "start", delay,
                 signal.SIGTERM if i % 2 else signal.SIGINT))

summary = {"old": 0, "new": 0}
for name, how, delay, sig in runs:
    dir = os.path.join(work, "run-" + name)
    make(dir)
    env = dict(os.environ)
    if how == "hook":
        # The hook's shell is a child of torch-tidy: $PPID is torch-tidy.
        env["TORCH_TIDY_TEST_BEFORE_FIX"] = "(sleep %g; kill -%d $PPID) &" % (delay, sig)
    p = subprocess.Popen(command(dir), env=env, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    if how == "start":
        time.sleep(delay)
        p.send_signal(sig)
    try:
        rc = p.wait(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()
        failures.append("%s: did not stop" % name)
        continue
    now = snapshot(dir)
    for f, (data, mode) in now.items():
        if f not in original:
            failures.append("%s (%s, exit %d): stray file %s" % (name, sig.name, rc, f))
            continue
        if mode != original[f][1]:
            failures.append("%s: %s changed mode %o -> %o" % (name, f, original[f][1], mode))
        if data == original[f][0]:
            summary["old"] += 1
        elif data == fixed[f][0]:
            summary["new"] += 1
        else:
            failures.append("%s (%s, exit %d): %s is neither the original nor the fixed file"
                            % (name, sig.name, rc, f))
    for f in original:
        if f not in now:
            failures.append("%s: %s is gone" % (name, f))
    sys.stderr.write("%s %s: exit %d, %d files new\n" % (
        name, sig.name, rc, sum(1 for f in now if f in fixed and now[f][0] == fixed[f][0]
                                and fixed[f][0] != original[f][0])))

for f in failures:
    sys.stderr.write("FAIL: %s\n" % f)
print("interrupted runs: %d; files left old: %d, new: %d" % (len(runs), summary["old"], summary["new"]))
sys.exit(1 if failures else 0)
