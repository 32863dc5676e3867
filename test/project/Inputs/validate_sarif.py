#!/usr/bin/env python3
"""validate_sarif.py SCHEMA LOG: validates LOG against the SARIF 2.1.0 JSON
schema, then prints one line per result (rule, uri, line, fingerprint,
related locations, fixes) for FileCheck."""
import json
import sys

import jsonschema

schema = json.load(open(sys.argv[1]))
log = json.load(open(sys.argv[2]))
jsonschema.validate(log, schema)
run = log["runs"][0]
print("valid SARIF %s, tool %s, %d rules, root %s" % (
    log["version"], run["tool"]["driver"]["name"], len(run["tool"]["driver"]["rules"]),
    run["originalUriBaseIds"]["SRCROOT"]["uri"]))
for rule in run["tool"]["driver"]["rules"]:
    print("rule %s help %s" % (rule["id"], rule["helpUri"]))
for r in run["results"]:
    loc = r["locations"][0]["physicalLocation"]
    print("result %s %s %s:%d:%d fp=%s related=%d fixes=%d" % (
        r["ruleId"], r["level"], loc["artifactLocation"]["uri"],
        loc["region"]["startLine"], loc["region"]["startColumn"],
        r["partialFingerprints"]["torchTidyFingerprint/v1"],
        len(r.get("relatedLocations", [])), len(r.get("fixes", []))))
