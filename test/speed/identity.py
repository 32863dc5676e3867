#!/usr/bin/env python3
"""identity.py TORCH_TIDY WORK_DIR -- FILE... -- COMPILER_FLAGS...

For each FILE: runs torch-tidy with every speed-up turned off, then with all
of them: from empty caches (the unit's preamble is precompiled), again with
the caches filled (the result is served), and once more after the file's own
code changed at its end (the precompiled preamble is reused). The
diagnostics (stdout), exit code and exported fixes must be byte-identical in
all four, and each cached run must have been served the way it says (the
cache trace on stderr), so that a speed-up that silently stopped working
fails too."""
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
checks = "-checks=-*,torch-*"
env = dict(os.environ, TORCH_TIDY_CACHE_TRACE="1")
failures = 0


def run(d, copy, extra):
    fixes = copy + ".yaml"
    if os.path.exists(fixes):
        os.remove(fixes)
    cmd = [tidy, checks, "--export-fixes=" + fixes] + extra + [copy, "--"] + flags
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    out = p.stdout.replace(d.encode(), b"DIR")
    yaml = open(fixes, "rb").read().replace(d.encode(), b"DIR") if os.path.exists(fixes) else b""
    prefix = "torch-tidy: cache "
    trace = [l[len(prefix):].split(":")[0] for l in p.stderr.decode(errors="replace").splitlines()
             if l.startswith(prefix)]
    return (p.returncode, out, yaml), trace


preambles_used = 0
for i, f in enumerate(files):
    slow_dir = os.path.join(work, "slow%d" % i)
    fast_dir = os.path.join(work, "fast%d" % i)
    cache = os.path.join(work, "cache%d" % i)
    outputs, traces = {}, {}
    for d in (slow_dir, fast_dir):
        os.makedirs(d)
        shutil.copy(f, d)
    slow_copy = os.path.join(slow_dir, os.path.basename(f))
    fast_copy = os.path.join(fast_dir, os.path.basename(f))
    outputs["slow"], _ = run(slow_dir, slow_copy,
                             ["--no-cache", "--no-skip-system-bodies", "--no-traversal-scope"])
    fast = ["--cache-dir=" + cache]
    outputs["cold"], traces["cold"] = run(fast_dir, fast_copy, fast)
    outputs["cached"], traces["cached"] = run(fast_dir, fast_copy, fast)
    with open(fast_copy, "a") as out:
        out.write("\n// edited after the first run\n")
    outputs["preamble"], traces["preamble"] = run(fast_dir, fast_copy, fast)

    expected = {"cold": ["miss", "preamble built"], "cached": ["hit"],
                "preamble": ["miss", "preamble hit"]}
    if traces["cold"] == ["miss", "preamble unusable"]:
        # The preamble does not compile: the unit is always parsed whole.
        expected["preamble"] = ["miss", "preamble unusable"]
    else:
        preambles_used += 1
    base = outputs["slow"]
    n = base[1].count(b": warning: ") + base[1].count(b": error: ")
    ok = True
    for mode in ("cold", "cached", "preamble"):
        if outputs[mode] != base:
            ok = False
            print("DIFFERENT: %s (%s vs slow)" % (os.path.basename(f), mode))
            for j, what in enumerate(("exit code", "diagnostics", "exported fixes")):
                if outputs[mode][j] != base[j]:
                    print("  %s differ" % what)
        if traces[mode] != expected[mode]:
            ok = False
            print("NOT SERVED AS EXPECTED: %s (%s): %s, expected %s"
                  % (os.path.basename(f), mode, traces[mode], expected[mode]))
    if ok:
        print("identical: %s (%d diagnostics)" % (os.path.basename(f), n))
    else:
        failures += 1
print("units whose precompiled preamble was reused: %d of %d" % (preambles_used, len(files)))
sys.exit(1 if failures else 0)
