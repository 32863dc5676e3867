#!/usr/bin/env python3
"""exit_code.py EXPECTED CMD...: runs CMD, passes its output through, and
fails unless it exits with EXPECTED."""
import subprocess
import sys

expected = int(sys.argv[1])
rc = subprocess.call(sys.argv[2:])
if rc != expected:
    sys.stderr.write("exit_code.py: expected exit code %d, got %d\n" % (expected, rc))
    sys.exit(1)
