#!/usr/bin/env python3
"""Checks `xgpu doctor --json` (on stdin) against docs/doctor.md's schema, version 1.

  check_doctor_json.py [--ok] [--platform NAME]... [--problem TEXT]...

--ok: no check is a problem and "ok" is true; --platform: some ok check's detail names the
platform; --problem: some problem check's subject or detail contains TEXT, and has a fix.
"""
import argparse
import json
import sys

parser = argparse.ArgumentParser()
parser.add_argument("--ok", action="store_true")
parser.add_argument("--platform", action="append", default=[])
parser.add_argument("--problem", action="append", default=[])
args = parser.parse_args()

doc = json.load(sys.stdin)
errors = []
if doc.get("schema_version") != 1:
    errors.append(f"schema_version is {doc.get('schema_version')!r}, not 1")
for key, kind in (("ok", bool), ("problems", int), ("verdict", str), ("checks", list)):
    if not isinstance(doc.get(key), kind):
        errors.append(f"'{key}' is missing or not a {kind.__name__}")
checks = doc.get("checks", [])
for check in checks:
    for key in ("section", "subject", "status", "detail"):
        if not isinstance(check.get(key), str):
            errors.append(f"a check lacks the string '{key}': {check}")
    if check.get("status") not in ("ok", "problem", "not_applicable"):
        errors.append(f"unknown status: {check}")
    if (check.get("status") == "problem") != ("fix" in check):
        errors.append(f"a fix must come with a problem, and only then: {check}")
problems = [c for c in checks if c.get("status") == "problem"]
if doc.get("problems") != len(problems) or doc.get("ok") != (not problems):
    errors.append(f"'problems'/'ok' disagree with the {len(problems)} problem checks")
if args.ok and problems:
    errors.append(f"problems found: {problems}")
for name in args.platform:
    if not any(c.get("status") == "ok" and name in c.get("detail", "") for c in checks):
        errors.append(f"no ok check names platform {name!r}")
for text in args.problem:
    if not any(text in c.get("subject", "") + c.get("detail", "") for c in problems):
        errors.append(f"no problem check mentions {text!r}")
for error in errors:
    print("check_doctor_json.py:", error, file=sys.stderr)
sys.exit(1 if errors else 0)
