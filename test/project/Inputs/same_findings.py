#!/usr/bin/env python3
"""same_findings.py json|sarif|fixes A B: fails unless A and B hold the same
findings (as sets; a merge may order shards differently)."""
import json
import sys


def findings(kind, path):
    text = open(path).read()
    if kind == "json":
        return sorted((d["check"], d["file"], d["line"], d["column"], d["message"])
                      for d in json.loads(text))
    if kind == "sarif":
        run = json.loads(text)["runs"][0]
        rules = [r["id"] for r in run["tool"]["driver"]["rules"]]
        out = []
        for r in run["results"]:
            assert rules[r["ruleIndex"]] == r["ruleId"], "ruleIndex points elsewhere"
            out.append((r["ruleId"], r["partialFingerprints"]["torchTidyFingerprint/v1"]))
        return sorted(out)
    # fixes: the YAML's diagnostic names, files and offsets
    out, cur = [], {}
    for line in text.splitlines():
        s = line.strip()
        if s.startswith("- DiagnosticName:"):
            cur = {"name": s.split(":", 1)[1].strip()}
        elif s.startswith("FilePath:") and "file" not in cur:
            cur["file"] = s.split(":", 1)[1].strip()
        elif s.startswith("FileOffset:") and "offset" not in cur:
            cur["offset"] = s.split(":", 1)[1].strip()
            out.append((cur["name"], cur["file"], cur["offset"]))
    return sorted(out)


kind, a, b = sys.argv[1:4]
fa, fb = findings(kind, a), findings(kind, b)
if not fa:
    sys.exit("same_findings.py: %s holds no findings" % a)
if fa != fb:
    sys.exit("same_findings.py: %s and %s differ:\n%s\n%s" % (a, b, fa, fb))
print("same %d findings" % len(fa))
