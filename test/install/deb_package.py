#!/usr/bin/env python3
"""deb_package.py BUILD_DIR WORK_DIR: builds the .deb with cpack, installs it
with apt-get, runs the installed torch-tidy, plugin and torch-clangd (an
editor session over the mock headers), removes it."""
import glob
import os
import shutil
import subprocess
import sys

build, work = sys.argv[1:3]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)


def run(cmd, **kw):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True, **kw)
    if p.returncode != 0:
        sys.exit("deb_package.py: %s failed (%d):\n%s" % (cmd, p.returncode, p.stdout))
    return p.stdout


run(["cpack", "-G", "DEB", "-B", work], cwd=build)
debs = glob.glob(os.path.join(work, "torch-tidy_*.deb"))
assert len(debs) == 1, debs
print("package", os.path.basename(debs[0]))
print(run(["dpkg-deb", "-f", debs[0], "Depends"]).strip() and
      "Depends: " + run(["dpkg-deb", "-f", debs[0], "Depends"]).strip())
env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
try:
    run(["apt-get", "install", "-y", "-q", "--reinstall", debs[0]], env=env)
    print("installed:", shutil.which("torch-tidy", path="/usr/bin"))
    print(run(["/usr/bin/torch-tidy", "--version"]).strip())
    listed = run(["clang-tidy-19", "-load=/usr/lib/TorchTidyModule.so",
                  "-checks=-*,torch-*", "--list-checks"])
    print("plugin:", [l.strip() for l in listed.splitlines() if "accumulation" in l][0])
    print("installed:", shutil.which("torch-clangd", path="/usr/bin"))
    print(run(["/usr/bin/torch-clangd", "--version"]).splitlines()[0])
    tests = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    session = run([sys.executable,
                   os.path.join(tests, "clangd", "Inputs", "edit_cycle.py"),
                   "--server", "/usr/bin/torch-clangd",
                   "--dir", os.path.join(work, "clangd"),
                   "--flags", "-std=c++17 -isystem " + os.path.join(tests, "Inputs"),
                   os.path.join(tests, "clangd", "Inputs", "leaky", "train.cpp")])
    print("torch-clangd diagnostics:", session.splitlines()[0].split(": ", 1)[1])
finally:
    subprocess.run(["apt-get", "remove", "-y", "-q", "torch-tidy"], env=env,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print("removed" if not os.path.exists("/usr/bin/torch-tidy")
      and not os.path.exists("/usr/bin/torch-clangd") else "still installed")
