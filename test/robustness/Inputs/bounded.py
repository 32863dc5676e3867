#!/usr/bin/env python3
"""bounded.py SECONDS MEGABYTES EXPECTED_EXIT CMD...: runs CMD (its stdout
passed through) and fails unless it exits with EXPECTED_EXIT within SECONDS
of wall time and its peak resident memory stays under MEGABYTES. Prints the
time and memory it took to stderr."""
import resource
import subprocess
import sys
import time

seconds, megabytes, expected = float(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])
start = time.monotonic()
p = subprocess.Popen(sys.argv[4:])
try:
    rc = p.wait(timeout=seconds)
except subprocess.TimeoutExpired:
    p.kill()
    p.wait()
    sys.stderr.write("bounded.py: still running after %g s: killed\n" % seconds)
    sys.exit(1)
elapsed = time.monotonic() - start
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024.0
sys.stderr.write("bounded.py: exit %d in %.1f s, peak %.0f MB\n" % (rc, elapsed, peak))
if rc != expected:
    sys.stderr.write("bounded.py: expected exit code %d, got %d\n" % (expected, rc))
    sys.exit(1)
if peak > megabytes:
    sys.stderr.write("bounded.py: more than %g MB\n" % megabytes)
    sys.exit(1)
