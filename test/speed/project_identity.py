#!/usr/bin/env python3
"""project_identity.py TORCH_TIDY PROJECT WORK [-j N]

Runs torch-tidy over every unit of PROJECT/build/compile_commands.json three
times: with every speed-up turned off (each unit parsed whole), from an
empty cache (units that share a preamble read the one their group built),
and once more after every unit's own code changed at its end (each reads
its preamble from the cache). The diagnostics (stdout), the exit code and
the exported fixes must be byte-identical in all three. The cache trace
must show that preambles were shared in the cold run (more units read one
than built one) and that every unit read one in the last run, so that
sharing that silently stopped working fails too.
"""
import glob
import json
import os
import shutil
import subprocess
import sys

args = sys.argv[1:]
tidy, project, work = args[0], os.path.abspath(args[1]), os.path.abspath(args[2])
jobs = args[args.index("-j") + 1] if "-j" in args else "2"
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
build = os.path.join(project, "build")
env = dict(os.environ, TORCH_TIDY_CACHE_TRACE="1")
cache = os.path.join(work, "cache")


def run(name, extra):
    fixes = os.path.join(work, name + ".yaml")
    cmd = [tidy, "-checks=-*,torch-*", "-header-filter=.*", "-p", build, "-j", jobs,
           "--export-fixes=" + fixes] + extra
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    yaml = open(fixes, "rb").read() if os.path.exists(fixes) else b""
    prefix = "torch-tidy: cache preamble "
    # Each unit's first analysis: a unit that the project's function
    # summaries answer differently is analysed once more, after every unit
    # has been, and reads its preamble again then.
    trace, seen = [], set()
    for l in p.stderr.decode(errors="replace").splitlines():
        if not l.startswith(prefix):
            continue
        what, _, unit = l[len(prefix):].partition(": ")
        if unit not in seen:
            seen.add(unit)
            trace.append(what)
    return (p.returncode, p.stdout, yaml), trace


units = [e["file"] for e in json.load(open(os.path.join(build, "compile_commands.json")))]
slow, _ = run("slow", ["--no-cache", "--no-skip-system-bodies", "--no-traversal-scope"])
cold, cold_trace = run("cold", ["--cache-dir=" + cache])
for u in units:
    with open(u, "a") as f:
        f.write("\n// edited after the first run\n")
edited, edited_trace = run("edited", ["--cache-dir=" + cache])

ok = True
for name, out in (("cold", cold), ("edited", edited)):
    for j, what in enumerate(("exit code", "diagnostics", "exported fixes")):
        if out[j] != slow[j]:
            ok = False
            print("DIFFERENT: %s %s (vs every speed-up off)" % (name, what))
built, hit = cold_trace.count("built"), cold_trace.count("hit")
if not 0 < built < hit + built or built + hit != len(units):
    ok = False
    print("NOT SHARED: cold run: %s" % cold_trace)
if edited_trace != ["hit"] * len(units):
    ok = False
    print("NOT REUSED: edited run: %s" % edited_trace)
findings = slow[1].count(b": warning: ")
print("%s: %d units, %d findings; cold run: %d preambles built, %d read by other units"
      % ("identical" if ok else "FAILED", len(units), findings, built, hit))
sys.exit(0 if ok else 1)
