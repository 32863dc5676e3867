#!/usr/bin/env python3
"""fingerprints_in.py BASELINE FINDINGS_JSON: how many findings of a
--format=json output the baseline holds."""
import json
import sys

base = {f["fingerprint"] for f in json.load(open(sys.argv[1]))["findings"]}
found = json.load(open(sys.argv[2]))
n = sum(f["fingerprint"] in base for f in found)
print("%d of %d findings are in the baseline" % (n, len(found)))
