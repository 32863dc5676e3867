#!/usr/bin/env python3
"""identity.py TORCH_TIDY WORK_DIR -- FILE... -- COMPILER_FLAGS...

For each FILE: runs torch-tidy with every speed-up (a fresh result cache,
bodies of system-header functions skipped, matchers limited to the user's
declarations), again with the cache filled, and once with every speed-up
turned off; the diagnostics (stdout) and the exported fixes must be byte-
identical in all three (the same replacements make the same fixed file)."""
import os
import shutil
import subprocess
import sys

args = sys.argv[1:]
tidy, work = args[0], args[1]
sep = args.index("--", 2)
rest = args[sep + 1:]
sep2 = rest.index("--")
files, flags = rest[:sep2], rest[sep2 + 1:]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
cache = os.path.join(work, "cache")
modes = {
    "fast-cold": ["--cache-dir=" + cache],
    "fast-cached": ["--cache-dir=" + cache],
    "slow": ["--no-cache", "--no-skip-system-bodies", "--no-traversal-scope"],
}
checks = "-checks=-*,torch-*"
failures = 0
for f in files:
    outputs = {}
    for mode, extra in modes.items():
        d = os.path.join(work, mode)
        os.makedirs(d, exist_ok=True)
        copy = os.path.join(d, os.path.basename(f))
        shutil.copy(f, copy)
        fixes = copy + ".yaml"
        cmd = [tidy, checks, "--export-fixes=" + fixes] + extra + [copy, "--"] + flags
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        out = p.stdout.replace(d.encode(), b"DIR")
        yaml = open(fixes, "rb").read().replace(d.encode(), b"DIR") if os.path.exists(fixes) else b""
        outputs[mode] = (p.returncode, out, yaml)
    base = outputs["slow"]
    n = out.count(b": warning: ") + out.count(b": error: ")
    for mode in ("fast-cold", "fast-cached"):
        if outputs[mode] != base:
            failures += 1
            print("DIFFERENT: %s (%s vs slow)" % (os.path.basename(f), mode))
            for i, what in enumerate(("exit code", "diagnostics", "exported fixes")):
                if outputs[mode][i] != base[i]:
                    print("  %s differ" % what)
    if all(outputs[m] == base for m in modes):
        print("identical: %s (%d diagnostics)" % (os.path.basename(f), n))
sys.exit(1 if failures else 0)
